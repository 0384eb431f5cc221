package diagnose

import (
	"testing"

	"headroom/model"
)

// A directory of keys named in prose ("/proc/sys/net/netfilter/ present") is not a key, so
// nothing failed to take effect; a misspelt key under that directory still fires (896).
func TestSysctlDirectoryNotUnknown(t *testing.T) {
	for _, key := range []string{"net.netfilter", "net.ipv4", "net.core"} {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention(key, "", "prose", 12)}
		mustBeHealthy(t, run(t, "sysctl-unknown-key", tl))
	}
	t.Run("a misspelt key of that directory", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_mme", "", "prose", 12)}
		mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
	})
}

// A bare path in prose with no value that is a near miss of a key the same text names whole
// ("/proc/sys/net/ipv/tcp_mem" in a code-search snippet beside "cat /proc/sys/net/ipv4/tcp_mem")
// is the page's mangled copy, not a setting anyone wrote (917). The same near miss alone, or
// written with a value, still fires.
func TestSysctlMangledCopyNotUnknown(t *testing.T) {
	tl := timeline(0)
	tl.Settings = []model.SettingMention{
		mention("net.ipv4.tcp_mem", "40704 54272 81408", "sysctl-a", 3),
		mention("net.ipv4.tcp_mem", "", "prose", 3),
		mention("net.ipv.tcp_mem", "", "prose", 26),
	}
	mustBeHealthy(t, run(t, "sysctl-unknown-key", tl))
	t.Run("the near miss alone", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("net.ipv.tcp_mem", "", "prose", 26)}
		mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
	})
	t.Run("the near miss written with a value", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{
			mention("net.ipv4.tcp_mem", "", "prose", 3),
			mention("vm.min_kbytes_free", "20000", "sysctl.conf", 5),
			mention("vm.min_free_kbytes", "", "prose", 7),
		}
		mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
	})
}
