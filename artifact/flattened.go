package artifact

import (
	"fmt"
	"headroom/model"
	"regexp"
	"strings"
)

// Command output that a web page or a chat flattened onto one line (issue 29; corpus 442,
// 452, 455): 'ip -s link' with its RX/TX tables, 'ifconfig' blocks, 'ethtool -S' counters,
// each separated by single spaces where the terminal had line breaks. The line is cut back
// into the lines the command printed, at the words each format starts its lines with, and
// read by the format's own reader; what it gives is attributed to the one line of the paste.

var (
	// ifconfig (net-tools 1.60): each block's lines start with these words.
	reFlatIfconfig = regexp.MustCompile(`\s+(inet addr:|inet6 addr:|UP |RX packets:|TX packets:|collisions:|RX bytes:|Interrupt:)`)
	// The next interface's name glued to the last field of the one before ("Base
	// address:0xd800lo Link encap:Local Loopback").
	reFlatIfName = regexp.MustCompile(`(?:\s+|(0x[0-9a-fA-F]+))([A-Za-z][\w.:-]*)\s+Link encap:`)
	// ethtool -S: "NIC statistics:" then "name: number" pairs.
	reFlatEthtoolPair = regexp.MustCompile(`\s+([A-Za-z][\w\[\]-]*: -?\d+)`)
	// ip -s link: the link line, then "RX:"/"TX:" headers whose values follow the words.
	reFlatIPStats = regexp.MustCompile(`\s+((?:RX|TX)(?: errors)?:(?: [a-z]+)+) (-?\d+(?: -?\d+)*)`)
	reFlatIPLink  = regexp.MustCompile(`\s+(link/\w+ )`)
	reFlatPrompt  = regexp.MustCompile(`\s*\S+@\S+:\S*\s*[$#]\s*$`)
)

// unflatten returns the lines the command printed, or nil when line t is not one of the
// flattened forms.
func unflatten(t string) []string {
	s := strings.TrimSpace(t)
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<pre>"), "</pre>"))
	s = strings.TrimSpace(strings.TrimSuffix(s, "...."))
	// Each form below names its command's words; a line without any (every unread line
	// is asked) is settled before the regexps run over it (a 1 MiB line of numbers spent
	// a third of its parse in reFlatPrompt). Removing the prompt at the end creates none.
	if !strings.Contains(s, "Link encap:") && !strings.Contains(s, "NIC statistics: ") && !strings.Contains(s, " RX: ") {
		return nil
	}
	if strings.IndexByte(s, '@') >= 0 {
		s = reFlatPrompt.ReplaceAllString(s, "") // a prompt after the output: the next command's
	}
	switch {
	case strings.Contains(s, "Link encap:") && strings.Contains(s, "RX packets:"):
		s = reFlatIfName.ReplaceAllString(s, "$1\n$2 Link encap:")
		s = reFlatIfconfig.ReplaceAllString(s, "\n          $1")
		// The command before the first block ("[root@asia twilight]# ifconfig eth0 Link ...").
		if i := strings.Index(s, " Link encap:"); i > 0 {
			if j := strings.LastIndexAny(s[:i], " \n"); j > 0 && s[j] == ' ' {
				s = s[:j] + "\n" + s[j+1:]
			}
		}
		return strings.Split(s, "\n")
	case strings.Contains(s, "NIC statistics: "):
		i := strings.Index(s, "NIC statistics: ")
		head, rest := strings.TrimSpace(s[:i]), s[i+len("NIC statistics:"):]
		out := []string{}
		if head != "" {
			out = append(out, head)
		}
		out = append(out, "NIC statistics:")
		for _, m := range reFlatEthtoolPair.FindAllStringSubmatch(rest, -1) {
			out = append(out, "     "+m[1])
		}
		if len(out) < 3 {
			return nil
		}
		return out
	case strings.Contains(s, " RX: ") && strings.Contains(s, " TX: ") && strings.Contains(s, " mtu "):
		s = reFlatIPLink.ReplaceAllString(s, "\n    $1")
		s = reFlatIPStats.ReplaceAllString(s, "\n    $1\n    $2")
		// The command before the link line ("$ ip -s link ls eth0 3: eth0: <...>").
		if m := regexp.MustCompile(` (\d+: [\w.@-]+: <)`).FindStringIndex(s); m != nil {
			s = s[:m[0]] + "\n" + s[m[0]+1:]
		}
		return strings.Split(s, "\n")
	}
	return nil
}

// tryFlattened reads line i when it is flattened command output; it reports whether it did.
func (d *doc) tryFlattened(i int) bool {
	lines := unflatten(d.ls[i].Text)
	if len(lines) < 3 {
		return false
	}
	sub := ParseString(strings.Join(lines, "\n")+"\n", "", d.opt)
	if len(sub.Artifacts) == 0 {
		return false
	}
	no := d.ls[i].No
	src := fmt.Sprintf("line %d (output flattened onto one line)", no)
	for _, seg := range sub.Segments {
		ss := append([]model.Sample(nil), sub.Samples[seg.First:seg.Last+1]...)
		for k := range ss {
			ss[k].Source = src
		}
		d.addSamples(seg.Kind, seg.Label, no, no, ss)
	}
	for _, a := range sub.Artifacts {
		d.addArtifact(a.Kind, no, no, a.Data)
	}
	return true
}
