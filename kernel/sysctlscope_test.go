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
		if k.PerNetnsSince != [2]int{} && !strings.Contains(info.History, fmt.Sprintf("v%d.%d", k.PerNetnsSince[0], k.PerNetnsSince[1])) {
			t.Errorf("%s: per-netns since %v in NetnsSysctls, the scope table says %q", k.Key, k.PerNetnsSince, info.History)
		}
	}
	for key, want := range map[string]Scope{"vm.min_free_kbytes": ScopeGlobal, "net.ipv4.conf.eth0.rp_filter": ScopePerNetns, "net.ipv4.tcp_mem": ScopeGlobal, "net.ipv4.no_such_key": ScopeUnknown} {
		if got := LookupSysctlScope(key).Scope; got != want {
			t.Errorf("%s: %v, want %v", key, got, want)
		}
	}
}
