package diagnose

import (
	"testing"

	"headroom/model"
)

// Keys of directories a loadable module registers (sunrpc, fs.nfs, net.ipv4.vs, ...) are not
// unknown because the key list (one host's sysctl -a) lacks the module; a near miss of a
// listed key of such a directory is still a misspelling, and a misspelt core key still is.
func TestSysctlModuleDirsNotUnknown(t *testing.T) {
	for _, key := range []string{"sunrpc.tcp_max_slot_table_entries", "sunrpc.tcp_slot_table_entries", "fs.nfs.nfs_callback_tcpport", "net.ipv4.vs.conntrack", "net.netfilter.nf_conntrack_sctp_timeout_closed"} {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention(key, "128", "sysctl.conf", 3)}
		mustBeHealthy(t, run(t, "sysctl-unknown-key", tl))
	}
	t.Run("a near miss of a listed netfilter key", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("net.netfilter.nf_conntrack_maxx", "262144", "sysctl.conf", 3)}
		mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
	})
	t.Run("a misspelt core key", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("vm.min_kbytes_free", "20248", "sysctl.conf", 3)}
		mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
	})
}

// A ring-loss rate from ethtool -S read by a watch tool fires as a rate; zero is healthy.
func TestNICRxRingLossRate(t *testing.T) {
	tl := timeline(0)
	tl.Samples = []model.Sample{{Source: "lines 3-5", Rates: model.Rates{model.RateNICRxRingLossPerSec: 451300}}}
	f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
	if !evidenceHas(f, "ring-loss", "not a since-boot counter") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	tl.Samples[0].Rates[model.RateNICRxRingLossPerSec] = 0
	mustBeHealthy(t, run(t, "nic-rx-overruns", tl))
}
