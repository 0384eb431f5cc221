package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/input"
	"headroom/kernel"
	"headroom/model"
	"headroom/report"
)

// suggestedCommand finds a command line a finding suggests: `headroom SUBCOMMAND ...` in
// backquotes, as findings write them.
var suggestedCommand = regexp.MustCompile("`headroom ([a-z]+)([^`]*)`")

// placeholder is how a suggestion marks a value the reader must supply: one upper-case word
// (B, R, N, LINK, RTT, RAM). The test puts an example value of the flag's type in its place;
// every other value must be accepted as written.
var placeholder = regexp.MustCompile(`^[A-Z]+$`)

var placeholderExamples = map[string]string{"--bandwidth": "1Gbit", "--rtt": "10ms", "--streams": "4", "--memory": "8GiB", "--lowmem": "896MiB", "--kernel": "6.18.44", "--arch": "x86_64"}

// Issue 18, item 5: a finding never suggests a command headroom rejects. Every command line
// suggested by a finding over the testdata inputs (the labelled corpus, the seeds, the
// captures) is run through the CLI: plan with its real flag parsing and validation, against
// a fixture host so nothing of this machine is read.
func TestSuggestedCommandsParse(t *testing.T) {
	var inputs []string
	for _, g := range []string{"../../testdata/corpus/*.txt", "../../testdata/seeds/*.txt", "../../testdata/captures/*.txtar", "../../diagnose/testdata/*/*.txtar"} {
		m, _ := filepath.Glob(g)
		inputs = append(inputs, m...)
	}
	if len(inputs) < 20 {
		t.Fatalf("only %d testdata inputs found", len(inputs))
	}
	cmds := map[string]string{} // command line → where it was suggested
	sysctlChecked := 0
	for _, in := range inputs {
		opt := input.Options{Kind: input.Text, LogSince: time.Hour}
		if strings.HasSuffix(in, ".txtar") {
			opt.Kind = input.Snapshot
		}
		tl, err := input.Open(context.Background(), in, opt)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		d := diagnose.Run(tl, nil)
		sysctlChecked += checkSysctlCommandsExist(t, filepath.Base(in), tl, d)
		for _, f := range d.Findings {
			texts := []string{f.Explanation}
			for _, c := range f.Changes {
				texts = append(texts, c.Recommended, c.Why)
			}
			for _, txt := range texts {
				for _, m := range suggestedCommand.FindAllStringSubmatch(txt, -1) {
					cmds[m[0]] = filepath.Base(in) + " " + f.ID
				}
			}
		}
	}
	if len(cmds) == 0 {
		t.Fatal("no finding suggested a command: the test checks nothing")
	}
	if sysctlChecked == 0 {
		t.Fatal("no input's report suggested a sysctl -w: the kernel check saw nothing")
	}

	// A fixture host for plan's defaults (it reads host facts for flags not given).
	root := t.TempDir()
	for rel, content := range map[string]string{
		"proc/meminfo":              "MemTotal:        8388608 kB\nMemFree:         4194304 kB\n",
		"proc/sys/kernel/osrelease": "6.18.44\n",
		"headroom/host.json":        `{"arch":"x86_64","page_size":4096}` + "\n",
	} {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved := planRoot
	planRoot = kernel.DirRoot(root)
	defer func() { planRoot = saved }()

	var lines []string
	for c := range cmds {
		lines = append(lines, c)
	}
	sort.Strings(lines)
	for _, line := range lines {
		m := suggestedCommand.FindStringSubmatch(line)
		sub, args := m[1], strings.Fields(m[2])
		if len(args) == 0 {
			continue // a reference to the command ("see `headroom plan`"), not a command line
		}
		for i := 1; i < len(args); i++ {
			if placeholder.MatchString(args[i]) {
				ex, ok := placeholderExamples[args[i-1]]
				if !ok {
					t.Errorf("%s (%s): placeholder %s after %s has no example value", line, cmds[line], args[i], args[i-1])
					continue
				}
				args[i] = ex
			}
		}
		switch sub {
		case "plan":
			_, errOut, code := runPlanArgs(t, append(args, "--format", "json")...)
			if code == exitFailure {
				t.Errorf("%s (suggested by %s) is rejected: %s", line, cmds[line], strings.TrimSpace(errOut))
			}
		default:
			t.Errorf("%s (suggested by %s): the test does not know how to check `headroom %s`", line, cmds[line], sub)
		}
	}
	t.Logf("%d suggested command lines checked: %q", len(lines), lines)
}

// sysctlWrite is a suggested `sysctl -w KEY=VALUE` as the renderers print it.
var sysctlWrite = regexp.MustCompile(`sysctl -w ([A-Za-z0-9_./-]+)=`)

// checkSysctlCommandsExist checks every `sysctl -w KEY` the text and markdown reports of d
// print against the kernel of the input (kernel.SysctlExists, by way of diagnose.AbsentSysctl,
// which also accepts a key the input shows on the host itself): a command for a key the
// kernel lacks would fail with "cannot stat /proc/sys/…". It returns how many it checked.
func checkSysctlCommandsExist(t *testing.T, name string, tl *model.Timeline, d diagnose.Diagnosis) int {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteText(&b, tl, d, report.TextOptions{Verbose: true}); err != nil {
		t.Fatalf("%s: text report: %v", name, err)
	}
	if err := report.WriteMarkdown(&b, tl, d); err != nil {
		t.Fatalf("%s: markdown report: %v", name, err)
	}
	n := 0
	for _, m := range sysctlWrite.FindAllStringSubmatch(b.String(), -1) {
		n++
		if why, absent := diagnose.AbsentSysctl(tl, m[1]); absent {
			t.Errorf("%s (kernel %q) suggests sysctl -w %s: %s", name, tl.Host.Kernel, m[1], why)
		}
	}
	return n
}

// Corpus 346 is a 2.4.20 host that swaps: vm.swappiness does not exist before 2.6, so the
// report offers no `sysctl -w vm.swappiness` and says why in the finding.
func TestNoSwappinessOn24(t *testing.T) {
	m, _ := filepath.Glob("../../testdata/corpus/346-*.txt")
	if len(m) != 1 {
		t.Fatalf("corpus 346: %v", m)
	}
	tl, err := input.Open(context.Background(), m[0], input.Options{Kind: input.Text, LogSince: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := tl.Host.KernelVersion(); !ok || v.Major != 2 || v.Minor != 4 {
		t.Fatalf("kernel %q: want 2.4", tl.Host.Kernel)
	}
	d := diagnose.Run(tl, nil)
	var b bytes.Buffer
	if err := report.WriteText(&b, tl, d, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteMarkdown(&b, tl, d); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "sysctl -w vm.swappiness") {
		t.Errorf("a 2.4.20 report suggests sysctl -w vm.swappiness:\n%s", out)
	}
	if !strings.Contains(out, "not offered: vm.swappiness: kernel 2.4.20 has no vm.swappiness") {
		t.Errorf("the finding does not say why vm.swappiness is not offered:\n%s", out)
	}
	for _, f := range d.Findings {
		for _, c := range f.Changes {
			if c.Key == "vm.swappiness" {
				t.Errorf("%s still carries a vm.swappiness change: %+v", f.ID, c)
			}
		}
	}
}
