package tune

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/model"
)

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A journaled key raised behind headroom's back is reported as drift; a sysctl.d file that
// sorts after the drop-in is reported as overriding it, one that sorts before is not; a file
// in /run/sysctl.d masks the same name in /usr/lib/sysctl.d.
func TestStatusDriftAndOverride(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "etc/sysctl.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	fs := newFakeFS(map[string]string{
		"net.ipv4.tcp_rmem":  "4096\t131072\t6291456",
		"vm.min_free_kbytes": "16384",
		"net.core.somaxconn": "4096",
	})
	j := openTestJournal(t, t.TempDir())
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow,
		Persist: &PersistOptions{Dir: filepath.Join(root, "etc/sysctl.d")}}
	changes := []model.Change{
		sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "BDP"),
		sysctl("vm.min_free_kbytes", "22528", "reserve"),
		sysctl("net.core.somaxconn", "8192", "accept queue"),
	}
	e, _, err := a.Apply(context.Background(), changes)
	if err != nil || e.State != StateApplied {
		t.Fatalf("apply: %v %+v", err, e)
	}
	// Behind headroom's back: min_free_kbytes raised (as khugepaged does), and the earlier
	// distribution file sets it to the value found now.
	fs.vals["vm.min_free_kbytes"] = "25600"
	writeFile(t, filepath.Join(root, "usr/lib/sysctl.d/50-default.conf"), "# distribution\nvm.min_free_kbytes = 25600\nnet.core.somaxconn=1024\n")
	// Masked by /run: never applied.
	writeFile(t, filepath.Join(root, "usr/lib/sysctl.d/95-masked.conf"), "net.core.somaxconn = 1\n")
	writeFile(t, filepath.Join(root, "run/sysctl.d/95-masked.conf"), "; nothing\n")
	// Sorts after 90-headroom.conf, slash-separated key and the '-' prefix.
	writeFile(t, filepath.Join(root, "etc/sysctl.d/99-local.conf"), "\n-net/ipv4/tcp_rmem = 4096 87380 212992\n")

	jf := mustReadJournal(t, j.dir)
	rep := Status(context.Background(), jf, StatusOptions{OpenFS: fsOpener(fs), BootRoot: root, SysctlDir: filepath.Join(root, "etc/sysctl.d")})
	byKey := map[string]KeyStatus{}
	for _, k := range rep.Keys {
		byKey[k.Key] = k
	}
	if len(byKey) != 3 {
		t.Fatalf("keys: %+v", rep.Keys)
	}
	mf := byKey["vm.min_free_kbytes"]
	if !mf.Drifted || mf.Now != "25600" || mf.Applied != "22528" {
		t.Errorf("min_free_kbytes: %+v", mf)
	}
	if !strings.Contains(mf.Cause, "/usr/lib/sysctl.d/50-default.conf:2") {
		t.Errorf("cause: %q", mf.Cause)
	}
	if !mf.OursWins || mf.Overridden {
		t.Errorf("min_free_kbytes: the drop-in sorts after 50-default.conf and wins: %+v", mf)
	}
	rm := byKey["net.ipv4.tcp_rmem"]
	if rm.Drifted || !rm.Overridden || rm.OursWins {
		t.Errorf("tcp_rmem: %+v", rm)
	}
	if !strings.Contains(rm.AtBoot, "OVERRIDDEN") || !strings.Contains(rm.AtBoot, "/etc/sysctl.d/99-local.conf:2") ||
		!strings.Contains(rm.AtBoot, "/etc/sysctl.d/90-headroom.conf") {
		t.Errorf("tcp_rmem at boot: %q", rm.AtBoot)
	}
	sc := byKey["net.core.somaxconn"]
	if sc.Drifted || sc.Overridden || !sc.OursWins {
		t.Errorf("somaxconn: %+v", sc)
	}
	for _, b := range sc.Boot {
		if strings.Contains(b.File, "95-masked") && b.Value == "1" {
			t.Errorf("masked file applied: %+v", sc.Boot)
		}
	}
	if len(rep.Drifted()) != 1 || len(rep.Overridden()) != 1 {
		t.Errorf("drifted %d overridden %d", len(rep.Drifted()), len(rep.Overridden()))
	}
	var b strings.Builder
	if err := WriteStatus(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vm.min_free_kbytes: entry 1 set 16384 → 22528", "now: 25600  DRIFTED from 22528", "[headroom]"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status text lacks %q:\n%s", want, b.String())
		}
	}

	// Rolled back: nothing left to report.
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow, Limits: testLimits}
	fs.vals["vm.min_free_kbytes"] = "22528"
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if rep := Status(context.Background(), mustReadJournal(t, j.dir), StatusOptions{OpenFS: fsOpener(fs), BootRoot: root}); len(rep.Keys) != 0 {
		t.Errorf("after rollback: %+v", rep.Keys)
	}
}

// TuneD's active profile applies after systemd-sysctl; with reapply_sysctl (the default)
// /etc/sysctl.d wins again, without it the profile wins.
func TestBootConfigTuned(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "etc/sysctl.d/90-headroom.conf"), "net.ipv4.tcp_rmem = 4096 131072 16777216\n")
	writeFile(t, filepath.Join(root, "usr/lib/sysctl.d/10-x.conf"), "vm.swappiness = 60\n")
	writeFile(t, filepath.Join(root, "etc/tuned/active_profile"), "mine\n")
	writeFile(t, filepath.Join(root, "usr/lib/tuned/base/tuned.conf"), "[sysctl]\nvm.swappiness=10\n")
	writeFile(t, filepath.Join(root, "etc/tuned/mine/tuned.conf"), "[main]\ninclude=base\n\n[my_sysctl]\ntype=sysctl\nnet.ipv4.tcp_rmem=4096 87380 6291456\n")
	bc := LoadBootConfig(root, []string{"/etc/sysctl.d/90-headroom.conf"})
	rm := bc.For("net.ipv4.tcp_rmem")
	if len(rm) != 3 || !rm[2].Ours || rm[2].By != "TuneD reapply_sysctl" || rm[1].File != "/etc/tuned/mine/tuned.conf" || rm[1].Line != 6 {
		t.Fatalf("tcp_rmem with reapply_sysctl: %v", rm)
	}
	sw := bc.For("vm.swappiness")
	if len(sw) != 2 || sw[1].Value != "10" || sw[1].File != "/usr/lib/tuned/base/tuned.conf" {
		t.Fatalf("swappiness: a /usr/lib file is not re-applied, the profile wins: %v", sw)
	}
	writeFile(t, filepath.Join(root, "etc/tuned/tuned-main.conf"), "reapply_sysctl = 0\n")
	rm = LoadBootConfig(root, nil).For("net.ipv4.tcp_rmem")
	if len(rm) != 2 || rm[1].By != "TuneD profile mine" {
		t.Fatalf("tcp_rmem without reapply_sysctl: %v", rm)
	}
}

// A ring size headroom set and a driver reload undid is drift too; nothing persists it.
func TestStatusNICRing(t *testing.T) {
	nic := &fakeNIC{rx: 256, tx: 256, maxRX: 4096, qdisc: "qdisc noqueue 0: root refcnt 2 "}
	j := openTestJournal(t, t.TempDir())
	a := &Applier{FS: newFakeFS(map[string]string{}), Runner: nic, NIC: true, Journal: j, Limits: testLimits, Now: fixedNow}
	e, _, err := a.Apply(context.Background(), []model.Change{{Kind: model.ChangeEthtool, Key: "eth0 rx", Recommended: "4096", Why: "rx_missed_errors"}})
	if err != nil || e.State != StateApplied {
		t.Fatalf("%v %+v", err, e)
	}
	opt := StatusOptions{Runner: func(string) Runner { return nic }, BootRoot: t.TempDir()}
	rep := Status(context.Background(), mustReadJournal(t, j.dir), opt)
	if len(rep.Keys) != 1 || rep.Keys[0].Drifted || rep.Keys[0].Now != "4096" || !strings.Contains(rep.Keys[0].AtBoot, "not persisted") {
		t.Fatalf("after apply: %+v", rep.Keys)
	}
	nic.rx = 256 // the driver was reloaded
	rep = Status(context.Background(), mustReadJournal(t, j.dir), opt)
	if k := rep.Keys[0]; !k.Drifted || k.Now != "256" || k.Kind != model.ChangeEthtool {
		t.Fatalf("after a reload: %+v", k)
	}
	var b strings.Builder
	WriteStatus(&b, rep)
	if !strings.Contains(b.String(), "ethtool eth0 rx: entry 1 set 256 → 4096\n  now: 256  DRIFTED from 4096") {
		t.Errorf("status:\n%s", b.String())
	}
}
