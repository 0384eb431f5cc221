package diagnose

import (
	"testing"

	"headroom/model"
)

func TestConntrackFull(t *testing.T) {
	t.Run("near the maximum", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "250000"
		tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "262144"
		f := mustFire(t, run(t, "conntrack-full", tl), Warning)
		if !evidenceHas(f, "conntrack entries", "250000 / 262144 = 95%") || len(f.Changes) != 1 || f.Changes[0].Recommended != "524288" {
			t.Errorf("%+v %+v", f.Evidence, f.Changes)
		}
	})
	t.Run("log line", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = []model.LogRecord{{Message: "nf_conntrack: nf_conntrack: table full, dropping packet", Source: "line 3"}}
		mustFire(t, run(t, "conntrack-full", tl), Critical)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "0"
		tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "262144"
		mustBeHealthy(t, run(t, "conntrack-full", tl))
	})
	t.Run("healthy log without counts", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = []model.LogRecord{{Message: "e1000e: eth0 NIC Link is Up", Source: "line 1"}}
		mustBeHealthy(t, run(t, "conntrack-full", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "conntrack-full", timeline(1)), "nf_conntrack")
	})
}

// A maximum of 0 (an unreadable or truncated value) gives no share to judge: "5 of 0 entries"
// must not be healthy.
func TestConntrackZeroMaxIsNotHealthy(t *testing.T) {
	tl := timeline(1)
	tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "5"
	tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "0"
	mustNotCheck(t, run(t, "conntrack-full", tl), "nf_conntrack_max")
}
