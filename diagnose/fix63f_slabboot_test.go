package diagnose

import (
	"strings"
	"testing"
)

// fix63f: SUnreclaim within what a booted kernel holds of its own (8 MiB: Debian 6.1 holds
// 6.8 MB on amd64, 3.5 MB on 686-pae, at any memory size) is no growth, whatever its share
// of a small router's memory; above it the share judges as before.
func TestFix63fSlabWithinKernelsOwn(t *testing.T) {
	meminfo := func(total, sunreclaim string) string {
		return "MemTotal: " + total + " kB\nMemFree: 4104 kB\nCached: 17860 kB\nSlab: 4224 kB\nSReclaimable: 620 kB\nSUnreclaim: " + sunreclaim + " kB\n"
	}
	res := fired(t, "slab-unreclaimable-growth", meminfo("28616", "3604"))
	mustBeHealthy(t, res)
	if !strings.Contains(res.Checked, "SUnreclaim") {
		t.Errorf("healthy without naming SUnreclaim: %q", res.Checked)
	}
	// Counter-cases: 12 MiB of a 28 MiB router, and 900 MiB of 2 GiB, are large.
	mustFire(t, fired(t, "slab-unreclaimable-growth", meminfo("28616", "12288")), Critical)
	mustFire(t, fired(t, "slab-unreclaimable-growth", meminfo("2048000", "300000")), Warning)
}
