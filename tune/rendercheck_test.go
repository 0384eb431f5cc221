package tune

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"headroom/model"
)

// The reproduction of issue 30 item 1: a key with a newline made each format print a live
// line of the attacker's choosing.
const injectedKey = "x\nkernel.core_pattern = |/tmp/evil\n#"

// hostileChanges are changes whose keys, values or reasons would each break out of the
// line a renderer writes them on, or be read as something else by sysctl.d or TuneD.
var hostileChanges = []model.Change{
	{Kind: model.ChangeOther, Key: injectedKey, Recommended: "y"},
	{Kind: model.ChangeOther, Key: "x\ntouch PWNED #", Recommended: "y"},
	{Kind: model.ChangeOther, Key: "advice", Recommended: "y\x1b]0;title\x07"},
	{Kind: model.ChangeOther, Key: "advice", Recommended: "y", Why: "a\x00kernel.core_pattern = |/tmp/evil"},
	{Kind: model.ChangeOther, Key: "x\u2028kernel.core_pattern = |/tmp/evil", Recommended: "y"},
	{Kind: model.ChangeOther, Key: "advice", Recommended: "y", Rule: "r\nkernel.x = 1"},
	{Kind: model.ChangeSysctl, Key: "net.core.somaxconn", Recommended: "4096\x01"},
	{Kind: model.ChangeSysctl, Key: "-net.core.somaxconn", Recommended: "4096"},
	{Kind: model.ChangeSysctl, Key: "net.core.somaxconn", Recommended: "${f:exec:touch:/tmp/PWNED}"},
	{Kind: model.ChangeSysctl, Key: "net.core.somaxconn", Recommended: "4096 # 1"},
	{Kind: model.ChangeSysctl, Key: "kernel.core_pattern", Recommended: "\x1b]0;x\x07"},
	{Kind: model.ChangeEthtool, Key: "a]b rx", Recommended: "4096"},
	{Kind: model.ChangeEthtool, Key: "eth0,lo rx", Recommended: "4096"},
	{Kind: model.ChangeEthtool, Key: "eth\x01 rx", Recommended: "4096"},
	{Kind: model.ChangeEthtool, Key: "eth0 rx", Recommended: "4096\ntouch PWNED"},
	{Kind: model.ChangeTC, Key: "e$x root tbf", Recommended: "rate 1mbit"},
}

// TestRenderRefusesInjection: every format refuses every hostile change, with an error
// that names the change, and writes nothing. Before checkRender, all three formats printed
// the first one's live "kernel.core_pattern = |/tmp/evil" line and returned nil.
func TestRenderRefusesInjection(t *testing.T) {
	base := sampleChanges(t)
	for i, bad := range hostileChanges {
		changes := append(append([]model.Change(nil), base...), bad)
		for name, render := range renderers("") {
			var b bytes.Buffer
			err := render(&b, changes)
			var re *RenderError
			if !errors.As(err, &re) {
				t.Errorf("hostile %d (%q) %s: err %v, want a RenderError\n%s", i, bad.Key, name, err, b.String())
				continue
			}
			if re.Index != len(changes) || !strings.Contains(err.Error(), fmt.Sprintf("change %d (%s ", len(changes), bad.Kind)) {
				t.Errorf("hostile %d %s: error does not name the change: %v", i, name, err)
			}
			if b.Len() != 0 {
				t.Errorf("hostile %d %s: wrote %d bytes before refusing", i, name, b.Len())
			}
		}
	}
	// White space in free text (a reason, advice) is collapsed to spaces, as before: a
	// carriage return or U+2028 there stays on its comment line.
	for _, c := range []model.Change{
		{Kind: model.ChangeOther, Key: "advice", Recommended: "y\rkernel.core_pattern = |/tmp/evil"},
		{Kind: model.ChangeOther, Key: "advice", Recommended: "y", Why: "a\u2028kernel.core_pattern = |/tmp/evil\n"},
	} {
		for name, render := range renderers("") {
			var b bytes.Buffer
			if err := render(&b, append(append([]model.Change(nil), base...), c)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, l := range strings.FieldsFunc(b.String(), func(r rune) bool { return r == '\n' || r == '\r' || r == '\u2028' }) {
				if strings.HasPrefix(strings.TrimSpace(l), "kernel.core_pattern") {
					t.Errorf("%s: live line %q", name, l)
				}
			}
		}
	}
	// Header texts that go into comments: the namespace name and the drop-in path.
	for _, netns := range []string{"a\nkernel.x = 1", "a\x00"} {
		if err := RenderShell(&bytes.Buffer{}, base, netns); err == nil {
			t.Errorf("shell accepted netns %q", netns)
		}
		if err := RenderSysctl(&bytes.Buffer{}, base, netns, "/x"); err == nil {
			t.Errorf("sysctl accepted netns %q", netns)
		}
	}
	if err := RenderSysctl(&bytes.Buffer{}, base, "ns", "/x\nkernel.x = 1"); err == nil {
		t.Error("sysctl accepted a path with a newline")
	}
}

// renderers are the three formats, as functions of the changes.
func renderers(netns string) map[string]func(*bytes.Buffer, []model.Change) error {
	return map[string]func(*bytes.Buffer, []model.Change) error{
		"sysctl": func(b *bytes.Buffer, c []model.Change) error {
			return RenderSysctl(b, c, netns, "/etc/sysctl.d/90-headroom.conf")
		},
		"tuned": func(b *bytes.Buffer, c []model.Change) error { return RenderTuned(b, c) },
		"shell": func(b *bytes.Buffer, c []model.Change) error { return RenderShell(b, c, netns) },
	}
}

// checkSysctlD parses a sysctl.d file with the grammar of procps `sysctl -p` (sysctl.c
// Preload) and systemd-sysctl (parse_file): after leading white space a line is empty, a
// '#' or ';' comment, or "key = value" split at the first '='; a leading '-' (ignore
// failure) or '!' (exclude) is a prefix, and a key may be a glob. headroom writes none of
// those, so they are errors here. The settings come back keyed by /proc/sys path.
func checkSysctlD(data string) (map[string]string, error) {
	out := map[string]string{}
	for n, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		t := strings.TrimLeft(line, " \t")
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '-' || t[0] == '!' {
			return nil, fmt.Errorf("line %d: prefix %q: %q", n+1, t[0], line)
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: not an assignment: %q", n+1, line)
		}
		k, v = strings.TrimSpace(k), strings.Trim(v, " \t\r")
		if k == "" || strings.ContainsAny(k, " \t*?[") {
			return nil, fmt.Errorf("line %d: bad key %q", n+1, k)
		}
		if strings.ContainsAny(v, "\r\x00") {
			return nil, fmt.Errorf("line %d: control character in value %q", n+1, v)
		}
		p, err := KeyPath(k)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		if _, dup := out[p]; dup {
			return nil, fmt.Errorf("line %d: %s set twice", n+1, k)
		}
		out[p] = v
	}
	return out, nil
}

// checkTunedINI parses a profile the way TuneD's loader does (tuned/profiles/loader.py:
// Python configparser, delimiters '=', inline comment prefix '#', full-line '#'/';'
// comments, options kept as written) and refuses what the loader would read differently from
// what the renderer meant: an indented line (configparser's continuation of the previous
// value), a section header with anything after ']', an option before any section, a value
// holding '#' (cut as an inline comment) or '$' (TuneD's ${...} expansion, which includes
// ${f:exec:...}), a section or option given twice.
func checkTunedINI(data string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	var sec map[string]string
	for n, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.IndexFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			return nil, fmt.Errorf("line %d: control character: %q", n+1, line)
		}
		if line[0] == ' ' || line[0] == '\t' {
			return nil, fmt.Errorf("line %d: indented, a continuation of the previous value: %q", n+1, line)
		}
		if t[0] == '[' {
			name, ok := strings.CutSuffix(t[1:], "]")
			if !ok || name == "" || strings.ContainsAny(name, "[]") {
				return nil, fmt.Errorf("line %d: bad section header %q", n+1, line)
			}
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("line %d: section %s twice", n+1, name)
			}
			sec = map[string]string{}
			out[name] = sec
			continue
		}
		if sec == nil {
			return nil, fmt.Errorf("line %d: option before any section", n+1)
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: no '=': %q", n+1, line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" || strings.ContainsAny(v, "#$") {
			return nil, fmt.Errorf("line %d: key %q value %q", n+1, k, v)
		}
		if _, dup := sec[k]; dup {
			return nil, fmt.Errorf("line %d: option %s twice", n+1, k)
		}
		sec[k] = v
	}
	return out, nil
}

// checkShellLines: every line of a rendered script is blank, a comment, "set -e", or one of
// the commands the renderer emits, so nothing else can run.
func checkShellLines(data, netns string) (sysctlWrites int, err error) {
	prefix := ""
	if netns != "" {
		prefix = "ip netns exec " + shellQuote(netns) + " "
	}
	for n, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		switch {
		case line == "", strings.HasPrefix(line, "#"), line == "set -e":
		case strings.HasPrefix(line, prefix+"sysctl -w "):
			sysctlWrites++
		case strings.HasPrefix(line, prefix+"ethtool -G "), strings.HasPrefix(line, prefix+"tc "):
		default:
			return 0, fmt.Errorf("line %d: not a command the renderer writes: %q", n+1, line)
		}
	}
	return sysctlWrites, nil
}

var shPath = sync.OnceValue(func() string { p, _ := exec.LookPath("sh"); return p })

// FuzzRender renders the sample changes plus one fuzzed change in all three formats, and
// checks whatever a renderer writes with the grammar of the program that reads it: sysctl
// -p's (checkSysctlD, which must give back exactly the sysctl changes), TuneD's loader's
// (checkTunedINI, exactly the sections and options meant) and sh's (sh -n, and every line a
// command the renderer emits).
func FuzzRender(f *testing.F) {
	for _, c := range hostileChanges {
		f.Add(kindIndex(c.Kind), c.Key, c.Recommended, c.Why, c.Rule, "")
	}
	f.Add(uint8(0), "net.core.somaxconn", "4096", "why", "rule", "ns1")
	f.Add(uint8(1), "eth1 tx", "1024", "why", "", "")
	f.Add(uint8(2), "eth1 root tbf", "rate 1mbit burst 32kb latency 50ms", "", "", "")
	f.Add(uint8(3), "cgroup /kubepods memory.max", "raise it", "why", "", "a b")
	base, err := ParseChanges(strings.NewReader(sampleChangesJSON(f)))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kind uint8, key, value, why, rule, netns string) {
		kinds := []string{model.ChangeSysctl, model.ChangeEthtool, model.ChangeTC, model.ChangeOther, "bogus"}
		c := model.Change{Kind: kinds[int(kind)%len(kinds)], Key: key, Recommended: value, Why: why, Rule: rule}
		changes := append(append([]model.Change(nil), base...), c)

		var b bytes.Buffer
		if err := RenderSysctl(&b, changes, netns, "/etc/sysctl.d/90-headroom.conf"); err == nil {
			got, err := checkSysctlD(b.String())
			if err != nil {
				t.Fatalf("sysctl.d grammar: %v\n%s", err, b.String())
			}
			want := map[string]string{}
			for _, c := range changes {
				if c.Kind == model.ChangeSysctl {
					p, _ := KeyPath(c.Key)
					want[p] = NormalizeValue(c.Recommended)
				}
			}
			if d := diffMaps(want, got); d != "" {
				t.Fatalf("sysctl.d settings differ from the changes:\n%s\n%s", d, b.String())
			}
		}

		b.Reset()
		if err := RenderTuned(&b, changes); err == nil {
			got, err := checkTunedINI(b.String())
			if err != nil {
				t.Fatalf("TuneD grammar: %v\n%s", err, b.String())
			}
			want := wantTunedSections(changes)
			if len(got) != len(want) {
				t.Fatalf("sections %v, want %v\n%s", got, want, b.String())
			}
			for name, opts := range want {
				if d := diffMaps(opts, got[name]); d != "" {
					t.Fatalf("[%s]:\n%s\n%s", name, d, b.String())
				}
			}
		}

		b.Reset()
		if err := RenderShell(&b, changes, netns); err == nil {
			n, err := checkShellLines(b.String(), netns)
			if err != nil {
				t.Fatalf("shell: %v\n%s", err, b.String())
			}
			if n == 0 && netns == "" {
				t.Fatalf("no sysctl -w line\n%s", b.String())
			}
			if sh := shPath(); sh != "" {
				if out, err := exec.Command(sh, "-n", "-c", b.String()).CombinedOutput(); err != nil {
					t.Fatalf("sh -n: %v %s\n%s", err, out, b.String())
				}
			}
		}
	})
}

func kindIndex(kind string) uint8 {
	for i, k := range []string{model.ChangeSysctl, model.ChangeEthtool, model.ChangeTC, model.ChangeOther} {
		if k == kind {
			return uint8(i)
		}
	}
	return 4
}

func sampleChangesJSON(tb testing.TB) string {
	b, err := os.ReadFile(filepath.Join("testdata", "changes.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
