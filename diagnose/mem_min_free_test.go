package diagnose

import (
	"strconv"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/plan"
)

func TestMinFreeTooLow(t *testing.T) {
	t.Run("10 Gbit/s with the kernel default", func(t *testing.T) {
		tl := timeline(1)
		memHost64(tl, "6.1.0")
		tl.Host.Sysctls["vm.min_free_kbytes"] = "16384"
		f := mustFire(t, run(t, "min-free-too-low", tl), Warning)
		in, _ := memPlanInput(tl)
		want, _ := plan.MinFreeKBytes(in)
		if c, ok := changeFor(f, "vm.min_free_kbytes"); !ok || c.Recommended != strconv.FormatInt(want, 10) || c.Current != "16384" {
			t.Errorf("change %+v, plan %d", f.Changes, want)
		}
		if !strings.Contains(f.Explanation, "SheevaPlug NAS") || !strings.Contains(f.Explanation, "65536") {
			t.Errorf("seeds' context missing: %s", f.Explanation)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		memHost64(tl, "6.1.0")
		in, _ := memPlanInput(tl)
		want, _ := plan.MinFreeKBytes(in)
		tl.Host.Sysctls["vm.min_free_kbytes"] = strconv.FormatInt(want, 10)
		mustBeHealthy(t, run(t, "min-free-too-low", tl))
	})
	t.Run("virtual NIC of unknown speed", func(t *testing.T) {
		tl := timeline(1)
		memHost64(tl, "6.18.0")
		tl.Host.NICs = []kernel.NIC{{Name: "eth0", Driver: "virtio_net", SpeedMbps: -1, MTU: 1500}}
		tl.Host.Sysctls["vm.min_free_kbytes"] = "67584"
		mustNotCheck(t, run(t, "min-free-too-low", tl), "NIC speed")
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "min-free-too-low", timeline(1)), "vm.min_free_kbytes")
	})
}
