package tune

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"headroom/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// sampleChanges is what `headroom plan --bandwidth 1Gbit --rtt 125ms --streams 20` and the
// doctor's rules for seeds 000 and 004 recommend, in model.Change form.
func sampleChanges(t *testing.T) []model.Change {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "changes.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ParseChanges(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRenderShellGolden(t *testing.T) {
	var b bytes.Buffer
	if err := RenderShell(&b, sampleChanges(t), ""); err != nil {
		t.Fatal(err)
	}
	golden(t, "shell.sh", b.Bytes())
	b.Reset()
	if err := RenderShell(&b, sampleChanges(t)[:2], "lab-a"); err != nil {
		t.Fatal(err)
	}
	golden(t, "shell-netns.sh", b.Bytes())
}

func TestRenderShellIsValidSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	var b bytes.Buffer
	if err := RenderShell(&b, sampleChanges(t), "x"); err != nil {
		t.Fatal(err)
	}
	// -n: parse only, run nothing.
	if out, err := exec.Command(sh, "-n", "-c", b.String()).CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s", err, out)
	}
}

func TestRenderSysctlGolden(t *testing.T) {
	var b bytes.Buffer
	if err := RenderSysctl(&b, sampleChanges(t), "", "/etc/sysctl.d/90-headroom.conf"); err != nil {
		t.Fatal(err)
	}
	golden(t, "sysctl.conf", b.Bytes())
	// Every setting line parses back, and the reason comment sits right above it.
	d := parseDropIn(b.String())
	n := 0
	for _, c := range sampleChanges(t) {
		if c.Kind == model.ChangeSysctl {
			n++
		}
	}
	if len(d.lines) != n {
		t.Fatalf("%d settings parsed back, want %d", len(d.lines), n)
	}
	for _, l := range d.lines {
		if last := l.above[len(l.above)-1]; !strings.HasPrefix(last, "# "+l.key+": ") {
			t.Errorf("%s: comment above is %q", l.key, last)
		}
	}
}

func TestRenderTunedGolden(t *testing.T) {
	var b bytes.Buffer
	if err := RenderTuned(&b, sampleChanges(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "tuned.conf", b.Bytes())
}

func TestWritePreviewGolden(t *testing.T) {
	changes := sampleChanges(t)
	fs := newFakeFS(map[string]string{
		"vm.min_free_kbytes":          "2000",
		"net.ipv4.tcp_rmem":           "4096\t131072\t6291456",
		"net.ipv4.tcp_wmem":           "4096\t16384\t4194304",
		"net.ipv4.tcp_mem":            "23193\t30925\t46386",
		"vm.overcommit_memory":        "0",
		"net.core.rmem_max":           "212992",
		"net.core.wmem_max":           "212992",
		"net.core.netdev_max_backlog": "1000",
	})
	a := &Applier{FS: fs, Runner: &fakeNIC{rx: 256, tx: 256, maxRX: 4096, qdisc: "qdisc noqueue 0: root refcnt 2"}, Limits: testLimits}
	var b bytes.Buffer
	if err := WritePreview(&b, a.Preview(context.Background(), changes)); err != nil {
		t.Fatal(err)
	}
	golden(t, "preview.txt", b.Bytes())
}

// parseINI reads a file the way TuneD's loader does (tuned/profiles/loader.py:
// configparser with '=' as the only delimiter, '#' inline comments, full-line '#' and ';'
// comments, option names kept as written).
func parseINI(t *testing.T, data string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	var sec map[string]string
	sc := bufio.NewScanner(strings.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			if !strings.HasSuffix(line, "]") {
				t.Fatalf("line %d: bad section %q", n, line)
			}
			name := line[1 : len(line)-1]
			if _, dup := out[name]; dup {
				t.Fatalf("line %d: section %s twice", n, name)
			}
			sec = map[string]string{}
			out[name] = sec
			continue
		}
		if sec == nil {
			t.Fatalf("line %d: option before any section", n)
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("line %d: no '=' in %q", n, line)
		}
		if i := strings.Index(v, " #"); i >= 0 {
			v = v[:i]
		}
		sec[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}

func wantTunedSections(changes []model.Change) map[string]map[string]string {
	want := map[string]map[string]string{"main": {"summary": "headroom: memory and network settings from headroom doctor or plan"}, "sysctl": {}}
	for _, c := range changes {
		switch c.Kind {
		case model.ChangeSysctl:
			want["sysctl"][c.Key] = NormalizeValue(c.Recommended)
		case model.ChangeEthtool:
			dev, p, _ := ParseEthtoolKey(c.Key)
			s := want["net_"+dev]
			if s == nil {
				s = map[string]string{"type": "net", "devices": dev}
				want["net_"+dev] = s
			}
			if s["ring"] != "" {
				s["ring"] += " "
			}
			s["ring"] += p + " " + NormalizeValue(c.Recommended)
		}
	}
	return want
}

func TestTunedProfileParsesAsINI(t *testing.T) {
	changes := sampleChanges(t)
	var b bytes.Buffer
	if err := RenderTuned(&b, changes); err != nil {
		t.Fatal(err)
	}
	got := parseINI(t, b.String())
	want := wantTunedSections(changes)
	if len(got) != len(want) {
		t.Errorf("sections %v, want %v", got, want)
	}
	for name, opts := range want {
		if d := diffMaps(opts, got[name]); d != "" {
			t.Errorf("[%s]:\n%s", name, d)
		}
	}
}

// TestTunedProfileAcceptedByTuneD loads the profile with TuneD's own loader (Debian package
// tuned). It skips when TuneD is not installed.
func TestTunedProfileAcceptedByTuneD(t *testing.T) {
	adm, err := exec.LookPath("tuned-adm")
	if err != nil {
		t.Skip("TuneD is not installed (Debian package tuned)")
	}
	// TuneD's modules belong to the interpreter named in tuned-adm's #! line.
	f, err := os.Open(adm)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(f).ReadString('\n')
	f.Close()
	interp := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(interp) == 0 {
		t.Skipf("cannot find TuneD's interpreter in %q", first)
	}
	changes := sampleChanges(t)
	dir := t.TempDir()
	if err := WriteTunedProfile(filepath.Join(dir, TunedProfileName), changes); err != nil {
		t.Fatal(err)
	}
	script := `
import json, sys
from tuned.profiles.loader import Loader
from tuned.profiles.locator import Locator
from tuned.profiles.factory import Factory
from tuned.profiles.merger import Merger
from tuned.profiles.variables import Variables
p = Loader(Locator([sys.argv[1]]), Factory(), Merger(), None, Variables()).load([sys.argv[2]])
out = {"main": dict(p.options)}
for name, u in p.units.items():
    o = dict(u.options)
    if u.type != name:
        o["type"] = u.type
    if u.devices != "*":
        o["devices"] = u.devices
    out[name] = o
print(json.dumps(out))
`
	cmd := exec.Command(interp[0], append(interp[1:], "-c", script, dir, TunedProfileName)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if strings.Contains(stderr.String(), "No module named 'tuned'") {
			t.Skipf("TuneD's python modules not importable: %s", stderr.String())
		}
		t.Fatalf("TuneD's loader rejected the profile: %v\n%s", err, stderr.String())
	}
	var got map[string]map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := wantTunedSections(changes)
	if len(got) != len(want) {
		t.Errorf("TuneD sees units %v, want %v", got, want)
	}
	for name, opts := range want {
		if d := diffMaps(opts, got[name]); d != "" {
			t.Errorf("TuneD [%s]:\n%s", name, d)
		}
	}
}

func TestPrintRollbackGolden(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	fs.vals["net.ipv4.tcp_congestion_control"] = "cubic"
	dir, sysctlDir := t.TempDir(), t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow}
	if _, _, err := a.Apply(context.Background(), changes[:2]); err != nil {
		t.Fatal(err)
	}
	a.Netns = "lab a"
	a.Persist = &PersistOptions{Dir: sysctlDir}
	if _, _, err := a.Apply(context.Background(), []model.Change{sysctl("net.ipv4.tcp_congestion_control", "bbr", "pacing")}); err != nil {
		t.Fatal(err)
	}
	jf := mustReadJournal(t, dir)
	var b bytes.Buffer
	if err := PrintRollback(&b, jf, 0, testLimits); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(b.String(), sysctlDir, "SYSCTLDIR")
	golden(t, "rollback-print.sh", []byte(got))
	if out, err := exec.Command("sh", "-n", "-c", b.String()).CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s", err, out)
	}
}
