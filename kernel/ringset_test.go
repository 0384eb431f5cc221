package kernel

import (
	"strings"
	"testing"
)

func TestRingSetting(t *testing.T) {
	v24, _ := ParseKernelVersion("2.4.19")
	if cmd, why := RingSetting(v24, true); !strings.Contains(cmd, "RxDescriptors=") || !strings.Contains(why, "e1000_param.c") {
		t.Errorf("2.4.19: %q %q", cmd, why)
	}
	v6, _ := ParseKernelVersion("6.1.0")
	if cmd, _ := RingSetting(v6, true); cmd != "ethtool -G IFACE rx MAX" {
		t.Errorf("6.1: %q", cmd)
	}
	if cmd, _ := RingSetting(KernelVersion{}, false); cmd != "ethtool -G IFACE rx MAX" {
		t.Errorf("unknown: %q", cmd)
	}
}
