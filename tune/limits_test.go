package tune

import (
	"headroom/kernel"
	"strings"
	"testing"

	"headroom/plan"
)

func TestBoundedKeysHaveScope(t *testing.T) {
	for _, k := range plan.BoundedKeys() {
		if kernel.LookupSysctlScope(k).Scope == kernel.ScopeUnknown {
			t.Errorf("%s has a bound but no scope entry", k)
		}
	}
}

func TestParseMemTotal(t *testing.T) {
	kb, err := parseMemTotalKB([]byte("MemTotal:       24684084 kB\nMemFree: 1 kB\n"))
	if err != nil || kb != 24684084 {
		t.Fatal(kb, err)
	}
	if _, err := parseMemTotalKB([]byte("MemFree: 1 kB\n")); err == nil {
		t.Error("no MemTotal accepted")
	}
	if _, err := parseMemTotalKB([]byte("MemTotal: x kB\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad MemTotal: %v", err)
	}
}
