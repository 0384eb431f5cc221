package artifact

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// refStripLineGutters is stripLineGutters as it was before it skipped to the lines that can
// start a gutter (branch parse7): every line read with gutterOf. The faster loop must
// give the same text for any input (TestStripLineGuttersIsReference).
func refStripLineGutters(text string) string {
	if !gutterHint(text) {
		return text
	}
	var b strings.Builder
	last := 0
	changed := false
	type gl struct{ start, cut int }
	var run []gl
	var style byte
	next := 1
	glued := false
	flush := func() {
		ok := len(run) >= 3 && (style == '.' || blankInRun(text, run[0].start, run[len(run)-1].cut)) && !zeroBefore(text, run[0].start, style)
		if style == '#' {
			ok = glued && len(run) >= 2
		}
		if ok {
			if !changed {
				b.Grow(len(text))
				changed = true
			}
			for _, g := range run {
				b.WriteString(text[last:g.start])
				last = g.cut
			}
		}
		run, next, glued = run[:0], 1, false
	}
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		n, st, cut := gutterOf(text[pos:end])
		if st == '#' {
			cut = min(end+1, len(text)) - pos
		}
		if c := gluedGutter(text[pos:end], next, len(run)); n == 0 && style == '#' && len(run) > 0 && c > 0 {
			run = append(run, gl{pos, pos + c})
			glued = true
			flush()
			pos = end + 1
			continue
		}
		if n > 0 && n == next && (len(run) == 0 || st == style) {
			if len(run) == 0 {
				style = st
			}
			run = append(run, gl{pos, pos + cut})
			next++
		} else {
			flush()
			if n == 1 {
				style = st
				run = append(run, gl{pos, pos + cut})
				next = 2
			}
		}
		pos = end + 1
	}
	flush()
	if !changed {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// randomGutterText is lines of a syslog, of command output and of numbered runs in every
// gutter style (some broken, some from 0, some with an empty numbered line), long enough
// now and then for the vector search's 32-byte steps.
func randomGutterText(rng *rand.Rand) string {
	var b strings.Builder
	other := []string{
		"Nov 29 12:00:01 host kernel: [  12.345678] e1000: eth0: NIC Link is Up 1000 Mbps Full Duplex",
		"Nov 29 12:00:02 host CRON[123]: (root) CMD (   cd / && run-parts --report /etc/cron.hourly)",
		"", " ", "\t1\tx", "1: lo: <LOOPBACK,UP> mtu 65536", "0. zero", " 0 zero", "x 1 y", "1.", "1. ", "10. ten",
		"     1 root  20   0", "a 1. b", "2 ", "1", " 1", "1\r", "12:", "  1:", "1:\r",
	}
	styles := []func(n int) string{
		func(n int) string { return fmt.Sprintf("%3d. ", n) },
		func(n int) string { return fmt.Sprintf("%d. ", n) },
		func(n int) string { return fmt.Sprintf("%6d\t", n) },
		func(n int) string { return fmt.Sprintf("%4d ", n) },
		func(n int) string { return fmt.Sprintf("%d:", n) },
		func(n int) string { return fmt.Sprintf("%d: ", n) },
		func(n int) string { return fmt.Sprintf("%d.", n) },
		func(n int) string { return fmt.Sprintf("%d", n) },  // a gutter column's number line
		func(n int) string { return fmt.Sprintf("%d[", n) }, // its last number glued to the code
		func(n int) string { return fmt.Sprintf("%dkB", n) },
	}
	for range 1 + rng.Intn(40) {
		if rng.Intn(3) > 0 {
			b.WriteString(other[rng.Intn(len(other))])
			b.WriteByte('\n')
			continue
		}
		if rng.Intn(5) == 0 {
			// A gutter column: its number lines, the last number glued to the code.
			k := rng.Intn(4)
			for n := 1; n <= k; n++ {
				fmt.Fprintf(&b, "%d\n", n)
			}
			fmt.Fprintf(&b, "%d%s\n", k+1, []string{"[  12.345678] x", "Nov 29 x", "<4>x", " x", "0 x", ""}[rng.Intn(6)])
			continue
		}
		st := styles[rng.Intn(len(styles))]
		first := rng.Intn(3) // 0: counted from 0
		for n := first; n < first+rng.Intn(6); n++ {
			if rng.Intn(8) == 0 {
				n++ // a gap
			}
			b.WriteString(st(n))
			if rng.Intn(4) > 0 {
				b.WriteString(other[rng.Intn(2)])
			}
			b.WriteByte('\n')
		}
	}
	s := b.String()
	if rng.Intn(4) == 0 && len(s) > 0 {
		s = s[:len(s)-1] // no newline at the end
	}
	return s
}

func TestStripLineGuttersIsReference(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	stripped := 0
	for k := 0; k < 20000; k++ {
		text := randomGutterText(rng)
		want := refStripLineGutters(text)
		if got := stripLineGutters(text); got != want {
			t.Fatalf("text %q:\ngot  %q\nwant %q", text, got, want)
		}
		if want != text {
			stripped++
		}
	}
	if stripped < 1000 {
		t.Fatalf("only %d of the random texts had a gutter: the test does not test the runs", stripped)
	}
}

// Parse strips gutters as it reads (checkGutters): from the first line numbered 1 on, the
// rest of the text is replaced by its stripped form while the searches ahead have already
// looked past it. The parse must be the parse of stripLineGutters(text) (parseWhole strips
// first), wherever the gutter starts: at the text's start, after the searches' stretch
// (searchAhead made small), in a window, at the end where readers ask for the text's last
// line (sysctl, softnet_stat, a stamp cut by the paste's end).
func TestLazyGuttersAreStripLineGutters(t *testing.T) {
	defer func(a int) { searchAhead = a }(searchAhead)
	rng := rand.New(rand.NewSource(29))
	blocks := []string{
		"  1. net.core.rmem_max = 212992\n  2. net.ipv4.tcp_mem = 1 2 3\n  3. vm.min_free_kbytes = 67584\n",
		"     1\tMemTotal:       16318480 kB\n     2\tMemFree:          204860 kB\n     3\t\n     4\tCached: 1 kB\n",
		"1: " + sysPrefix + dmesgStamp + "kswapd0: page allocation failure: order:2, mode:0x104020\n2: " + sysPrefix + dmesgStamp + "CPU: 1 PID: 56 Comm: kswapd0 Not tainted 4.9.0\n3:\n",
		"  1 cpu  10 20 30\n  2 \n  3 intr 1 2\n",
		"  1. 0000000a 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n  2. 0000000b 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n  3. ",
		"  1. [21132.799070\n  2. x\n  3. [21132.7990",
		// Bytes the searches ahead look for (an entity, a backslash, a byte past ASCII),
		// at other places once the gutters are gone.
		"1. &gt; " + sysPrefix + "[    1.000000] e1000: eth0: NIC Link is Up &amp; \\n\n2. caf\u00e9 &lt;4&gt;\n3. " + sysPrefix + "x &gt; y\n" + quietLines(3),
	}
	for k := 0; k < 400; k++ {
		searchAhead = []int{16, 64, 1 << 10, 64 << 10}[rng.Intn(4)]
		var b strings.Builder
		for range 1 + rng.Intn(5) {
			switch rng.Intn(4) {
			case 0:
				b.WriteString(quietLines(rng.Intn(30)))
			case 1:
				b.WriteString(daemonLine + "\n")
			case 2:
				b.WriteString(randomGutterText(rng))
				b.WriteString("\n")
			default:
				b.WriteString(blocks[rng.Intn(len(blocks))])
			}
		}
		text := b.String()
		if rng.Intn(3) == 0 {
			text = strings.TrimSuffix(text, "\n")
		}
		sameAsWhole(t, fmt.Sprintf("text %d (searchAhead %d)", k, searchAhead), text)
	}
}
