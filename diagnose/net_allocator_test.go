package diagnose

import (
	"testing"

	"headroom/model"
)

func TestAllocatorChurn(t *testing.T) {
	t.Run("seed 001 before and after the frame pool", func(t *testing.T) {
		after := model.Profile{Tool: "readprofile", Source: "lines 84-103", Total: 34880, Rows: []model.ProfileRow{
			{Symbol: "default_idle", Ticks: 28581}, {Symbol: "skb_release_data", Ticks: 657}, {Symbol: "alloc_skb_frame", Ticks: 335},
			{Symbol: "__kfree_skb", Ticks: 193}, {Symbol: "kfree_skbmem", Ticks: 160}, {Symbol: "alloc_skb", Ticks: 43}, {Symbol: "eth_type_trans", Ticks: 1094},
		}}
		tl := timeline(0)
		tl.Profiles = []model.Profile{seed001Profile(), after}
		f := mustFire(t, run(t, "allocator-churn", tl), Warning)
		// 733+645+638+382+241+194 = 2833 of 36324−28044 = 8280; 657+335+193+160+43 = 1388 of 6299.
		if !evidenceHas(f, "profile 1", "34% of non-idle (2833 of 8280 non-idle ticks") || !evidenceHas(f, "profile 2", "22% of non-idle (1388 of 6299 non-idle ticks") ||
			!evidenceHas(f, "absent from the last profile", "kfree, kmalloc") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("perf percentages", func(t *testing.T) {
		tl := timeline(0)
		tl.Profiles = []model.Profile{{Tool: "perf", Rows: []model.ProfileRow{
			{Symbol: "intel_idle", Share: 50}, {Symbol: "kmem_cache_alloc_node", Share: 8}, {Symbol: "__alloc_skb", Share: 4},
			{Symbol: "kfree_skb_reason.part.0", Share: 3}, {Symbol: "tcp_v4_rcv", Share: 20}, {Symbol: "copy_user_enhanced_fast_string", Share: 15},
		}}}
		f := mustFire(t, run(t, "allocator-churn", tl), Warning)
		if !evidenceHas(f, "profile 1", "30% of non-idle") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(0)
		tl.Profiles = []model.Profile{{Tool: "readprofile", Total: 20000, Rows: []model.ProfileRow{
			{Symbol: "default_idle", Ticks: 10000}, {Symbol: "csum_partial", Ticks: 5000}, {Symbol: "kmalloc", Ticks: 300}, {Symbol: "kfree", Ticks: 300},
		}}}
		mustBeHealthy(t, run(t, "allocator-churn", tl))
	})
	t.Run("missing: no profile", func(t *testing.T) {
		mustNotCheck(t, run(t, "allocator-churn", timeline(1)), "profile")
	})
	t.Run("missing: too few ticks", func(t *testing.T) {
		tl := timeline(0)
		tl.Profiles = []model.Profile{{Tool: "readprofile", Total: 600, Rows: []model.ProfileRow{{Symbol: "default_idle", Ticks: 100}, {Symbol: "kmalloc", Ticks: 400}}}}
		mustNotCheck(t, run(t, "allocator-churn", tl), "non-idle ticks")
	})
}

func TestSeed001AllocatorChurn(t *testing.T) {
	d := Run(parseSeed(t, "001"), nil)
	f := mustHave(t, d, "allocator-churn", Warning)[0]
	// Before: skb_release_data 733 + kmalloc 645 + kfree 638 + alloc_skb 382 + kfree_skbmem 241
	// + __kfree_skb 194 = 2833 of 36324 − 28044 idle = 8280 non-idle ticks (34%). After:
	// 657 + alloc_skb_frame 335 + 193 + 160 + 43 = 1388 of 34880 − 28581 = 6299 (22%).
	if !evidenceHas(f, "profile 1", "34% of non-idle (2833 of 8280") || !evidenceHas(f, "profile 2", "22% of non-idle (1388 of 6299") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// seed001 is seed 001's first readprofile table (top 20 symbols of 36324 ticks).
func seed001Profile() model.Profile {
	rows := []model.ProfileRow{
		{Symbol: "default_idle", Ticks: 28044}, {Symbol: "__rdtsc_delay", Ticks: 1117}, {Symbol: "eth_type_trans", Ticks: 927},
		{Symbol: "skb_release_data", Ticks: 733}, {Symbol: "kmalloc", Ticks: 645}, {Symbol: "kfree", Ticks: 638},
		{Symbol: "__make_request", Ticks: 463}, {Symbol: "__scsi_end_request", Ticks: 415}, {Symbol: "alloc_skb", Ticks: 382},
		{Symbol: "tw_interrupt", Ticks: 372}, {Symbol: "kfree_skbmem", Ticks: 241}, {Symbol: "scsi_dispatch_cmd", Ticks: 233},
		{Symbol: "__generic_copy_to_user", Ticks: 233}, {Symbol: "__kfree_skb", Ticks: 194}, {Symbol: "scsi_request_fn", Ticks: 184},
		{Symbol: "ip_rcv", Ticks: 103}, {Symbol: "__wake_up", Ticks: 88}, {Symbol: "do_anonymous_page", Ticks: 84}, {Symbol: "do_softirq", Ticks: 72},
	}
	return model.Profile{Tool: "readprofile", Source: "lines 55-74", Total: 36324, Rows: rows}
}
