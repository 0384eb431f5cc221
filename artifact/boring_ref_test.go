package artifact

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// boringHoldingRef is boringHolding before its shortcut for the usual kernel line (perf15q):
// the reference TestBoringHoldingShortcut compares it with.
func boringHoldingRef(l *Line, needles uint32) bool {
	t := l.Text
	if isBlank(t) {
		return true
	}
	if appOOMHanded(l, needles) || systemdOOMHanded(l, needles) {
		return false // a program's own out-of-memory line, systemd's unit OOM line (fix15a)
	}
	if !l.Kernel && !l.Syslog || l.Tag == "systemd-sysctl" || l.Tag == "earlyoom" || l.Tag == "kubelet" || l.Tag == "systemd-oomd" || l.Tag == "nohang" || l.Tag == "lmkd" || l.Tag == "lowmemorykiller" || talosOOMKillLine(l) || mayBeDockerOOM(l) || !l.Kernel && (isAgentTag(l.Tag) || isDBTag(l.Tag) || ownStampHost(l)) || ownEndHanded(l) {
		return false
	}
	return !mayStartReportHolding(t, needles)
}

// boringHolding's shortcut (quietStarts, quietEnds, readsTag) says what the loop's tests say,
// on the fixtures, the seeds and a generated syslog, each line also with a byte or a tag
// changed where the shortcut decides: its first and last bytes, blank space, the tags the
// readers want, with no header needle, the header needles and any needle.
func TestBoringHoldingShortcut(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 1<<20, 5); err != nil {
		t.Fatal(err)
	}
	texts := fixtureTexts(t)
	// Dump lines that start with none of dumpStarts and end with ':', and trace starts.
	texts["generated"] = buf.String() + "lowmem_reserve[]:\nDMA32 per-cpu:\ncpu 0 hot:\n  lowmem_reserve[]:\nCPU: 1 PID: 2 Comm: x Not tainted 6.1.0 #1\nPid: 7, comm: x\nCall Trace:\n"
	r := rand.New(rand.NewSource(6))
	edits := []string{"(", "1", "A", "a", "C", "P", "D", "F", "H", "M", "N", "S", "T", "[", "m", "U", ":", " ", "\t", "\v", "\u00a0", "é", "x", "Ac", "Ta", "Un"}
	tags := []string{"kernel", "", "user", "systemd-sysctl", "earlyoom", "kubelet", "systemd-oomd", "nohang", "lmkd", "lowmemorykiller", "netdata", "qmemman.daemon", "kafka", "CRON", "systemd", "wallet"}
	needles := []uint32{0, headerNeedles, 1 << needleAllocat, anyNeedle, 1 << needleLinkUp, 1 << needleOfMemory, 1 << needleKill}
	checked, fast := 0, 0
	for name, text := range texts {
		for _, raw := range strings.Split(text, "\n") {
			l, _, _ := parseLine(1, raw)
			for k := 0; k < 6; k++ {
				m := l
				switch k {
				case 1:
					m.Text = edits[r.Intn(len(edits))] + m.Text
				case 2:
					m.Text += edits[r.Intn(len(edits))]
				case 3:
					m.Text = "  " + m.Text + edits[r.Intn(len(edits))]
				case 4:
					m.Tag = tags[r.Intn(len(tags))]
					m.Kernel, m.Syslog = r.Intn(2) == 0, r.Intn(2) == 0
				case 5:
					m.Text, m.Tag = "oom "+m.Text, ""
					m.Host = "container"
				}
				for _, n := range needles {
					checked++
					if n&headerNeedles == 0 && m.Text != "" && quietStarts[m.Text[0]] && quietEnds[m.Text[len(m.Text)-1]] {
						fast++
					}
					if got, want := boringHolding(&m, n), boringHoldingRef(&m, n); got != want {
						t.Fatalf("%s: %+v with needles %#x: boring %v, want %v", name, m, n, got, want)
					}
				}
			}
		}
	}
	if fast < checked/10 {
		t.Errorf("the shortcut took %d of %d lines", fast, checked)
	}
}
