package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// fragFinding carries the changes the fragmentation rules suggest on a current kernel.
func fragFinding() []Finding {
	return []Finding{{ID: "page-alloc-failure", Changes: []model.Change{
		{Kind: model.ChangeSysctl, Key: "vm.min_free_kbytes", Recommended: "65536"},
		{Kind: model.ChangeSysctl, Key: "vm.watermark_boost_factor", Current: "0", Recommended: "15000"},
		{Kind: model.ChangeSysctl, Key: "vm.compaction_proactiveness", Current: "0", Recommended: "20"},
		{Kind: model.ChangeOther, Key: "receive buffer order", Recommended: "order-0 receive buffers"},
	}}}
}

func changeKeys(f Finding) string {
	var k []string
	for _, c := range f.Changes {
		k = append(k, c.Key)
	}
	return strings.Join(k, ",")
}

func TestDropAbsentSysctls(t *testing.T) {
	all := "vm.min_free_kbytes,vm.watermark_boost_factor,vm.compaction_proactiveness,receive buffer order"
	for _, c := range []struct {
		kernel  string
		sysctls map[string]string
		want    string
		notes   []string
	}{
		{"4.4.0-210-generic", nil, "vm.min_free_kbytes,receive buffer order",
			[]string{"not offered: vm.watermark_boost_factor", "not offered: vm.compaction_proactiveness"}},
		{"6.1.0-13-amd64", nil, all, nil},
		{"", nil, all, nil}, // unknown kernel: nothing is blocked
		// A vendor 4.18 kernel that backported the boost: the host's own value proves the key.
		{"4.18.0-553.el8_10.x86_64", map[string]string{"vm.watermark_boost_factor": "0"},
			"vm.min_free_kbytes,vm.watermark_boost_factor,receive buffer order",
			[]string{"not offered: vm.compaction_proactiveness"}},
		{"2.4.20", nil, "receive buffer order",
			[]string{"not offered: vm.min_free_kbytes", "freepages", "not offered: vm.watermark_boost_factor", "not offered: vm.compaction_proactiveness"}},
	} {
		tl := &model.Timeline{Host: model.Host{Kernel: c.kernel, Sysctls: c.sysctls}}
		fs := fragFinding()
		dropAbsentSysctls(tl, fs)
		if got := changeKeys(fs[0]); got != c.want {
			t.Errorf("%q: changes %s, want %s", c.kernel, got, c.want)
		}
		var ev []string
		for _, e := range fs[0].Evidence {
			ev = append(ev, e.What+": "+e.Value)
		}
		text := strings.Join(ev, "\n")
		for _, n := range c.notes {
			if !strings.Contains(text, n) {
				t.Errorf("%q: evidence lacks %q:\n%s", c.kernel, n, text)
			}
		}
		if len(c.notes) == 0 && len(ev) != 0 {
			t.Errorf("%q: nothing dropped, yet evidence %q", c.kernel, ev)
		}
	}
}

func TestDropAbsentSteps(t *testing.T) {
	tl := &model.Timeline{Host: model.Host{Kernel: "2.4.20"}}
	swap := Step{Key: "vm.swappiness", Value: "10", Command: "sysctl -w vm.swappiness=10"}
	ring := Step{Key: "eth0 rx", Value: "4096", Command: "ethtool -G eth0 rx 4096"}
	advice := Step{Key: "vm.watermark_scale_factor", Value: "after the upgrade (it exists from 4.6)"}
	minFree := Step{Key: "vm.min_free_kbytes", Value: "20000", Command: "sysctl -w vm.min_free_kbytes=20000"}
	s := Story{Chains: []Chain{{Root: "swap-under-load", Change: &swap}}, FirstChange: &swap, Then: []Step{ring, advice, minFree}}
	DropAbsentSteps(tl, &s)
	if s.FirstChange == nil || s.FirstChange.Key != "eth0 rx" || s.Chains[0].Change != s.FirstChange {
		t.Fatalf("first change %+v (chain %+v), want the ring", s.FirstChange, s.Chains[0].Change)
	}
	if len(s.Then) != 1 || s.Then[0].Key != "vm.watermark_scale_factor" {
		t.Errorf("then %+v: want the advice without a command kept, vm.min_free_kbytes gone", s.Then)
	}

	s = Story{Chains: []Chain{{Root: "swap-under-load", Change: &swap}}, FirstChange: &swap}
	DropAbsentSteps(&model.Timeline{Host: model.Host{Kernel: "6.18.44"}}, &s)
	if s.FirstChange == nil || s.FirstChange.Key != "vm.swappiness" {
		t.Errorf("6.18 keeps vm.swappiness, got %+v", s.FirstChange)
	}
}
