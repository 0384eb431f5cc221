package diagnose

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/artifact"
)

// fix34b (round 29, g131): a NIC driver counter's successive readings stated in a sentence;
// bcc's map and compile errors, Cilium's info log with its dynamic sizing, a Go program's
// ENOMEM panic and a bpftrace one-liner's output named with their figures. Snippets are the
// cases' own lines (2917, 2904, 2907, 2919, 2918) and forms built around them.

func TestFix34bNICCounterRiseStated(t *testing.T) {
	for name, text := range map[string]string{
		"three readings": "rx_discards_phy increased from 5963738838 to 6182841734  and 7242315227 while we are receiving tcp syn attacks.\n",
		"two, grew":      "During the flood rx_missed_errors grew from 1,200 to 98,000 on eth0.\n",
		"went, then":     "rx_fifo_errors went from 10 to 20, then 35 within a minute.\n",
	} {
		tl := pasteTimeline(t, text)
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
		if !evidenceHas(f, "ethtool rx_", "between the readings") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
		if name == "three readings" && !evidenceHas(f, "rx_discards_phy", "+1278576389") {
			t.Errorf("%s: growth first to last: %+v", name, f.Evidence)
		}
		if name == "two, grew" && !strings.HasPrefix(f.Evidence[0].What, "eth0 ") {
			t.Errorf("%s: interface not kept: %+v", name, f.Evidence)
		}
		if res := run(t, "rx-dropped-software", tl); len(res.Findings) > 0 {
			t.Errorf("%s: rx-dropped-software: %+v", name, res.Findings)
		}
	}
}

// The same words that state no reading of this host's counter: a possibility, a question,
// advice, a negation, a counter that fell, another program's word that is no NIC counter,
// a quoted message, and the word alone.
func TestFix34bNICCounterRiseCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"condition":    "If rx_discards_phy increased from 100 to 200 between two runs, the ring is too small.\n",
		"question":     "Has rx_discards_phy increased from 100 to 200 on yours?\n",
		"advice":       "You should check whether rx_missed_errors goes from 0 to 50 under load.\n",
		"negated":      "rx_missed_errors never went from 0 to anything, it stays at zero.\n",
		"fell":         "rx_discards_phy went from 500 to 200 after the reboot.\n",
		"not a NIC":    "request_count increased from 100 to 200 during the test.\n",
		"quoted":       "Someone wrote:\n\n> rx_discards_phy increased from 100 to 200 on their box.\n\nI see nothing like it here.\nMy ring is at its maximum already.\n",
		"no readings":  "rx_discards_phy counts frames dropped for lack of buffers.\n",
		"test machine": "On our test machine rx_discards_phy increased from 100 to 20000.\n",
	} {
		tl := pasteTimeline(t, text)
		if res := run(t, "nic-rx-overruns", tl); len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings)
		}
	}
}

func TestFix34bBPFLinesNamedWithFigures(t *testing.T) {
	for _, c := range []struct {
		name, text, why string
		figures         []string
	}{
		{"bcc map ENOMEM", "```\n$./deadlock.py 101565 --binary /lib64/libpthread.so.0\ncould not open bpf map: thread_to_held_mutexes, error: Cannot allocate memory\nTraceback (most recent call last):\nException: Failed to compile BPF module deadlock.c\n```\n\nThe memory requirement for this map is very big:\n```\n  2097152 * (8 + 16 * 16) = 553648128\n```\n", "libbcc raises RLIMIT_MEMLOCK", []string{"553648128", "2097152"}},
		{"bcc other errno", "could not open bpf map: events, error: Operation not permitted\n", "bcc's own message", nil},
		{"cilium logrus", "level=info msg=\"Memory available for map entries (0.003% of 32831414272B): 82078535B\" subsys=config\nlevel=info msg=\"option bpf-ct-global-tcp-max set by dynamic sizing to 287994\" subsys=config\nlevel=info msg=\"  --agent-health-port='9879'\" subsys=daemon\n", "Cilium's agent log", []string{"32831414272", "82078535", "287994"}},
		{"cilium slog", "time=2026-06-27T14:00:11.756428436Z level=info msg=\"Memory available for map entries (0.250% of 8322646016B): 20806615B\"\ntime=2026-06-27T14:00:11.756524087Z level=info msg=\"option bpf-ct-global-tcp-max set by dynamic sizing to 131072\"\n", "Cilium's agent log", []string{"8322646016", "131072"}},
		{"go panic", "```\n# ./xdp_acl  -D eth0\nLoad XDP in AUTO mode\npanic: cannot allocate memory\n\ngoroutine 1 [running]:\nmain.loadXdpOnLink()\n\t/xdp_acl/xdp_about.go:99 +0x17e\n```\n", "syscall.ENOMEM", nil},
		{"go panic wrapped", "panic: attach xdp to eth0: cannot allocate memory\n", "syscall.ENOMEM", nil},
		{"bpftrace", "```\n# bpftrace -e 'kprobe:bpf_map_area_alloc { print(arg0); }'\n[...]\n135266304\n```\n", "bpftrace one-liner", []string{"135266304"}},
	} {
		tl := pasteTimeline(t, c.text)
		if artifact.NothingRead(tl) && len(tl.Unparsed) == 0 {
			t.Errorf("%s: nothing read", c.name)
			continue
		}
		found := false
		for _, u := range tl.Unparsed {
			found = found || strings.Contains(u.Why, c.why)
		}
		if !found {
			t.Errorf("%s: not named: %+v", c.name, tl.Unparsed)
		}
		var figs strings.Builder
		for _, a := range tl.Artifacts {
			if a.Kind == artifact.KindProgramLimit {
				figs.WriteString(strings.ReplaceAll(strings.ReplaceAll(jsonOf(a.Data), " ", ""), "\n", ""))
			}
		}
		for _, want := range c.figures {
			if !strings.Contains(figs.String(), want) {
				t.Errorf("%s: figure %s not kept: %s", c.name, want, figs.String())
			}
		}
		for _, id := range append(h29bKernelRules, "overcommit-exposed", "conntrack-full", "nic-rx-overruns") {
			if res := run(t, id, tl); len(res.Findings) > 0 {
				t.Errorf("%s: %s fired: %+v", c.name, id, res.Findings)
			}
		}
	}
}

// Not those programs' lines: Cilium's error with ENOMEM (h29b's map reading or none), other
// programs' logfmt, the words in a sentence, a Go runtime's own out of memory, a product
// with no BPF map's ENOMEM before it, a bpftrace command that prints nothing read.
func TestFix34bBPFLinesCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"cilium fork error":  "level=error msg=\"fork failed\" error=\"cannot allocate memory\" subsys=daemon\n",
		"other logfmt":       "level=info msg=\"started\" component=api\n",
		"bcc in a sentence":  "I got could not open bpf map: x, error: Cannot allocate memory when running it.\n",
		"go runtime oom":     "fatal error: runtime: out of memory\n",
		"go runtime error":   "panic: runtime error: cannot allocate memory\n",
		"product alone":      "2097152 * (8 + 16 * 16) = 553648128\n",
		"bpftrace in prose":  "I ran bpftrace -e with print and it printed nothing useful.\n",
		"kernel panic":       "Kernel panic - not syncing: Out of memory and no killable processes...\n",
		"go panic other err": "panic: permission denied\n",
	} {
		tl := pasteTimeline(t, text)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "Cilium's agent log") || strings.Contains(u.Why, "bcc's") || strings.Contains(u.Why, "syscall.ENOMEM") || strings.Contains(u.Why, "bpftrace") || strings.Contains(u.Why, "after a BPF map's ENOMEM") {
				t.Errorf("%s: named: %+v", name, u)
			}
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
