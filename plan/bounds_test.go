package plan

import (
	"strings"
	"testing"

	"headroom/kernel"
)

func TestCheckBound(t *testing.T) {
	ok := map[string]string{
		"net.ipv4.tcp_rmem":               "4096 131072 2147483647",
		"net.core.rmem_max":               "2304",
		"net.core.wmem_default":           "4608",
		"vm.min_free_kbytes":              "20000", // seed 000 on 512 MiB: 3.8 %
		"net.ipv4.tcp_mem":                "16384 32768 65536",
		"net.ipv4.tcp_congestion_control": "bbr",
		"vm.swappiness":                   "200",
		"net.ipv4.tcp_adv_win_scale":      "-2",
	}
	for k, v := range ok {
		if err := CheckBound(k, v, boundTestLimits); err != nil {
			t.Errorf("%s = %s: %v", k, v, err)
		}
	}
	bad := map[string][2]string{
		"net.ipv4.tcp_rmem":               {"4096 131072 2147483648", "field 3 = 2147483648 is above the maximum 2147483647"},
		"net.ipv4.tcp_wmem":               {"4096 16384", "want 3 integer field(s), got 2"},
		"net.ipv4.tcp_mem":                {"3 2 1", "field 2 = 2 is smaller than field 1 = 3"},
		"net.ipv4.udp_mem":                {"1 2 65537", "65537 is above 65536 (bound: 50 % of MemTotal 524288 KB in 4096-byte pages"},
		"net.core.rmem_max":               {"2303", "below the minimum 2304"},
		"net.core.wmem_max":               {"4607", "below the minimum 4608"},
		"vm.min_free_kbytes":              {"127", "below the minimum 128"},
		"vm.overcommit_memory":            {"3", "above the maximum 2"},
		"net.core.netdev_max_backlog":     {"0", "below the minimum 1"},
		"net.ipv4.tcp_congestion_control": {"bbr cubic", "not a single name"},
		"net.ipv4.tcp_rmem ":              {"1 2 3", "no safety bound"},
		"kernel.panic":                    {"1", "headroom has no safety bound for this key"},
		"net.core.somaxconn":              {"lots", "is not an integer"},
	}
	for k, c := range bad {
		err := CheckBound(k, c[0], boundTestLimits)
		if err == nil || !strings.Contains(err.Error(), c[1]) {
			t.Errorf("%s = %s: got %v, want %q", k, c[0], err, c[1])
		}
	}
	if err := CheckBound("vm.min_free_kbytes", "1000", Limits{}); err == nil || !strings.Contains(err.Error(), "MemTotal is unknown") {
		t.Errorf("unknown RAM: %v", err)
	}
}

var boundTestLimits = Limits{MemTotalKB: 512 * 1024, PageSizeBytes: 4096}

func TestPolicyNeverWidensTheKernelRange(t *testing.T) {
	for _, k := range BoundedKeys() {
		r, ok := kernel.LookupSysctlRange(k)
		b, _ := lookupBound(k)
		if !ok || b.Min < r.Min || b.Max != r.Max || b.Fields != r.Fields {
			t.Errorf("%s: headroom's bound %+v is not within the kernel's %+v", k, b.SysctlRange, r)
		}
	}
}
