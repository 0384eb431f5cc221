package kernel

import (
	"strings"
	"testing"
)

func TestKnownSysctl(t *testing.T) {
	for _, c := range []struct {
		key     string
		known   bool
		suggest string
	}{
		{"vm.min_free_kbytes", true, ""},
		{"vm.min_kbytes_free", false, "vm.min_free_kbytes"},
		{"/proc/sys/vm/min_kbytes_free", false, "vm.min_free_kbytes"},
		{"net.ipv4.tcp_rmen", false, "net.ipv4.tcp_rmem"},
		{"net.ipv4.tcp_tw_recycle", true, ""},
		{"net.core.hot_list_length", true, ""},
		{"net.ipv4.conf.eth7.rp_filter", true, ""},
		{"net.ipv6.neigh.bond0.gc_stale_time", true, ""},
		{"kernel.frobnicate_everything", false, ""},
	} {
		known, sug := KnownSysctl(c.key)
		if known != c.known || sug != c.suggest {
			t.Errorf("%s: known %v suggest %q, want %v %q", c.key, known, sug, c.known, c.suggest)
		}
	}
	if note, ok := SysctlNote("net.ipv4.tcp_tw_recycle"); !ok || !strings.Contains(note, "4.12") {
		t.Errorf("tcp_tw_recycle note %q", note)
	}
}
