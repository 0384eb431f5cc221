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
