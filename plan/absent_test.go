package plan

import (
	"strings"
	"testing"
	"time"

	"headroom/model"
)

func TestPlanLeavesOutAbsentKeys(t *testing.T) {
	base := Input{BandwidthBitsPerSec: 1e9, RTT: 20 * time.Millisecond, MemoryBytes: 4 << 30, Arch: "x86_64", Role: RoleBoth}
	keys := func(p Plan) map[string]bool {
		out := map[string]bool{}
		for _, c := range p.Settings {
			if c.Kind == model.ChangeSysctl {
				out[c.Key] = true
			}
		}
		return out
	}
	notes := func(p Plan) string { return strings.Join(p.Notes, "\n") }
	for _, c := range []struct {
		kernel  string
		current map[string]string
		has     []string
		lacks   []string
		note    string
	}{
		{"2.4.20", nil, []string{"net.ipv4.tcp_rmem", "net.core.rmem_max", "net.ipv4.tcp_mem"},
			[]string{"vm.min_free_kbytes", "vm.watermark_scale_factor", "net.ipv4.tcp_notsent_lowat"}, "left out vm.min_free_kbytes"},
		{"2.4.17", nil, []string{"net.core.netdev_max_backlog"}, []string{"net.core.netdev_budget", "vm.min_free_kbytes"}, "left out net.core.netdev_budget"},
		// A vendor kernel whose current values show the key keeps it.
		{"2.4.20", map[string]string{"vm.min_free_kbytes": "1024"}, []string{"vm.min_free_kbytes"}, nil, ""},
		// tcp_notsent_lowat came in 3.12 (kernel.SysctlExists, not a hand version check).
		{"3.11.0", nil, []string{"net.ipv4.tcp_rmem", "vm.min_free_kbytes"}, []string{"net.ipv4.tcp_notsent_lowat", "vm.watermark_scale_factor"}, ""},
		{"3.12.0", nil, []string{"net.ipv4.tcp_notsent_lowat"}, []string{"vm.watermark_scale_factor"}, ""},
		{"4.4.0", nil, []string{"vm.min_free_kbytes", "net.core.netdev_budget", "net.ipv4.tcp_notsent_lowat"}, []string{"vm.watermark_scale_factor"}, ""},
		{"6.18.44", nil, []string{"vm.min_free_kbytes", "vm.watermark_scale_factor", "net.core.netdev_budget", "net.ipv4.tcp_notsent_lowat"}, nil, ""},
		{"", nil, []string{"vm.min_free_kbytes", "vm.watermark_scale_factor", "net.ipv4.tcp_notsent_lowat"}, nil, ""},
	} {
		in := base
		in.KernelVersion, in.Current = c.kernel, c.current
		p := mustCompute(t, in)
		got := keys(p)
		for _, k := range c.has {
			if !got[k] {
				t.Errorf("kernel %q: plan lacks %s: %v", c.kernel, k, got)
			}
		}
		for _, k := range c.lacks {
			if got[k] {
				t.Errorf("kernel %q: plan sets %s, which this kernel does not have", c.kernel, k)
			}
		}
		if c.note != "" && !strings.Contains(notes(p), c.note) {
			t.Errorf("kernel %q: notes lack %q:\n%s", c.kernel, c.note, notes(p))
		}
		if c.note == "" && strings.Contains(notes(p), "left out") {
			t.Errorf("kernel %q: nothing should be left out:\n%s", c.kernel, notes(p))
		}
	}
}
