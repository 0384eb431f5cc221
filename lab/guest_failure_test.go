package lab

import (
	"os"
	"strings"
	"testing"

	"headroom/lab/vm"
)

// The failure lines the JSON carries are the guest's own: a 6.1 686-pae guest's report
// (lab/testdata, copied from its console) gives its header, the RX refill's frames, the
// zone lines of the dump and the OOM kill, without the rest of the dump.
func TestGuestFailureLines(t *testing.T) {
	b, err := os.ReadFile("testdata/guest-6.1-686-pae-lowmem-dmesg.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines, fails, ooms := guestFailureLines(string(b))
	if fails != 1 || ooms != 1 {
		t.Fatalf("failures %d, OOM kills %d; want 1, 1", fails, ooms)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		"ksoftirqd/0: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC)",
		"try_fill_recv+0x288/0x5d0 [virtio_net]",
		"Normal free:15300kB boost:0kB min:41280kB",
		"298978 pages HighMem/MovableOnly",
		"kworker/0:2 invoked oom-killer",
		"Out of memory: Killed process 118 (vmx)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in\n%s", want, all)
		}
	}
	for _, not := range []string{"Mem-Info:", "Tasks state", "active_anon:1659", "refill_work+0x7c"} {
		if strings.Contains(all, not) {
			t.Errorf("%q should be left out:\n%s", not, all)
		}
	}
	if l, f, o := guestFailureLines("[    1.0] virtio_net virtio0 eth0: renamed\n"); len(l) != 0 || f != 0 || o != 0 {
		t.Errorf("a clean log gave %v %d %d", l, f, o)
	}
}

// The "after" guest gets the plan's keys the scenario names, as the "before" guest's plan
// wrote them, and nothing else.
func TestGuestPlanSettings(t *testing.T) {
	conf := "# sysctl.d drop-in written by headroom plan\n# was: 2241\nvm.min_free_kbytes = 16969\n\n# was: 10\nvm.watermark_scale_factor = 540\nnet.core.netdev_budget = 651\n"
	res := &vm.Result{Files: map[string][]byte{"plan.conf": []byte(conf)}}
	_, got, err := planSettings(res, []string{"vm.min_free_kbytes", "vm.watermark_scale_factor"})
	if err != nil || strings.Join(got, "|") != "vm.min_free_kbytes = 16969|vm.watermark_scale_factor = 540" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, all, _ := planSettings(res, nil); len(all) != 3 {
		t.Errorf("all keys: %q", all)
	}
	if _, _, err := planSettings(res, []string{"net.ipv4.tcp_mem"}); err == nil {
		t.Error("a plan without the wanted keys must be an error")
	}
	if _, _, err := planSettings(&vm.Result{Files: map[string][]byte{"plan.err": []byte("boom")}}, nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("no plan: %v", err)
	}
}

// Only the "before" guest runs doctor and plan; only the "after" guest applies the plan,
// before the sink starts.
func TestGuestFailureScripts(t *testing.T) {
	for _, s := range []*guestFailureSpec{lowmemTCPSpec(), atomicRxSpec()} {
		b, a := s.script("before"), s.script("after")
		if !strings.Contains(b, "headroom doctor --format json") || !strings.Contains(b, "headroom plan "+strings.Join(s.planArgs, " ")) {
			t.Errorf("%s: before script lacks doctor or plan:\n%s", s.name, b)
		}
		if strings.Contains(a, "headroom doctor") || !strings.Contains(b, "> $OUT/plan.conf") {
			t.Errorf("%s: after script runs doctor, or before does not write plan.conf", s.name)
		}
		i, j := strings.Index(a, "sysctl -p /etc/headroom/plan.conf"), strings.Index(a, "HEADROOM_LAB_HELPER=guest-sink")
		if i < 0 || j < 0 || i > j {
			t.Errorf("%s: the after script must apply the plan before the sink starts:\n%s", s.name, a)
		}
		if strings.Contains(b, "sysctl -p /etc/headroom/plan.conf") {
			t.Errorf("%s: the before script applies a plan", s.name)
		}
		for _, f := range []string{"$OUT/samples.txt", "$OUT/meminfo-end.txt", "$OUT/zoneinfo-end.txt"} {
			if !strings.Contains(b, f) || !strings.Contains(a, f) {
				t.Errorf("%s: a script does not record %s", s.name, f)
			}
		}
	}
}

// A run keeps the guest's memory evidence and kernel log, each bounded to its tail.
func TestGuestEvidence(t *testing.T) {
	big := strings.Repeat("x", 600<<10) + "END"
	ev := guestEvidence(&vm.Result{Dmesg: big, Files: map[string][]byte{
		"meminfo-end.txt": []byte("MemTotal: 1 kB\n"), "sink.json": []byte("{}"), "samples.txt": []byte("t 1\n")}})
	if ev["meminfo-end.txt"] == "" || ev["samples.txt"] == "" {
		t.Errorf("evidence %v lacks the memory files", ev)
	}
	if _, ok := ev["sink.json"]; ok {
		t.Error("evidence keeps a file it does not list")
	}
	if d := ev["dmesg"]; len(d) > 512<<10 || !strings.HasSuffix(d, "END") {
		t.Errorf("kernel log kept as %d bytes ending %q: want its last 512 KiB", len(d), d[max(len(d)-3, 0):])
	}
}

// The sink's kernel-log watch counts reports and OOM kills and keeps their lines.
func TestKmsgWatchCounts(t *testing.T) {
	w := &kmsgWatch{changed: make(chan struct{}, 1)}
	for _, m := range []string{
		"eth0: link up",
		"ksoftirqd/0: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC), nodemask=(null)",
		"headroom invoked oom-killer: gfp_mask=0xcd0(GFP_KERNEL|__GFP_RECLAIMABLE), order=0, oom_score_adj=0",
		"Out of memory: Killed process 129 (headroom) total-vm:582744kB",
	} {
		w.note(m)
	}
	f, o, lines := w.counts()
	if f != 1 || o != 1 || len(lines) != 3 {
		t.Errorf("failures %d, OOM %d, lines %q", f, o, lines)
	}
}
