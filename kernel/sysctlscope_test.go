package kernel

import (
	"fmt"
	"strings"
	"testing"
)

// The per-namespace TCP keys doctor --netns compares and the scope table tune refuses global
// keys by are two views of one fact; they must agree, down to the version a key became
// per-namespace when both state it.
func TestNetnsSysctlsArePerNetnsInTheScopeTable(t *testing.T) {
	for _, k := range NetnsSysctls {
		info := LookupSysctlScope(k.Key)
		if info.Scope != ScopePerNetns {
			t.Errorf("%s: NetnsSysctls lists it, the scope table says %v", k.Key, info.Scope)
		}
		if s := info.PerNetnsSince; s.Known && !strings.Contains(info.History, fmt.Sprintf("v%d.%d", s.Major, s.Minor)) {
			t.Errorf("%s: per-netns since %v, its history says %q", k.Key, s, info.History)
		}
	}
	if s := LookupSysctlScope("net.ipv4.tcp_rmem").PerNetnsSince; s != KV(4, 15, 0) {
		t.Errorf("tcp_rmem per-netns since %v, want 4.15 (commit 356d1833b638)", s)
	}
	for key, want := range map[string]Scope{"vm.min_free_kbytes": ScopeGlobal, "net.ipv4.conf.eth0.rp_filter": ScopePerNetns, "net.ipv4.tcp_mem": ScopeGlobal, "net.ipv4.no_such_key": ScopeUnknown} {
		if got := LookupSysctlScope(key).Scope; got != want {
			t.Errorf("%s: %v, want %v", key, got, want)
		}
	}
}
