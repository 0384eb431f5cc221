package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func netnsTimeline(host, ns map[string]string) *model.Timeline {
	tl := &model.Timeline{Host: model.Host{Kernel: "6.1.0", Sysctls: host}}
	if ns != nil {
		tl.Netns = &model.NetnsView{Name: "netns pod1", Sysctls: ns}
	}
	return tl
}

func TestNetnsTCPGap(t *testing.T) {
	host := map[string]string{"net.ipv4.tcp_rmem": "4096 131072 33554432", "net.ipv4.tcp_wmem": "4096 16384 4194304", "net.core.somaxconn": "4096"}

	r := checkNetnsTCPGap(netnsTimeline(host, map[string]string{
		"net.ipv4.tcp_rmem": "4096 131072 6291456", "net.ipv4.tcp_wmem": "4096 16384 4194304", "net.core.somaxconn": "1024"}))
	if len(r.Findings) != 1 {
		t.Fatalf("want a finding, got %+v", r)
	}
	f := r.Findings[0]
	if f.Severity != Warning || len(f.Changes) != 2 {
		t.Fatalf("finding %+v", f)
	}
	c := f.Changes[0]
	if c.Key != "pod securityContext.sysctls net.ipv4.tcp_rmem" || c.Current != "4096 131072 6291456" || c.Recommended != "4096 131072 33554432" || c.Kind != model.ChangeOther {
		t.Errorf("change %+v", c)
	}
	if !strings.Contains(c.Why, "safe sysctl since Kubernetes 1.32") || !strings.Contains(c.Why, "4.15") {
		t.Errorf("why %q", c.Why)
	}
	if !strings.Contains(f.Changes[1].Why, "--allowed-unsafe-sysctls=net.core.somaxconn") {
		t.Errorf("somaxconn why %q", f.Changes[1].Why)
	}

	// Equal or above: healthy.
	r = checkNetnsTCPGap(netnsTimeline(host, map[string]string{"net.ipv4.tcp_rmem": "4096 131072 33554432", "net.core.somaxconn": "8192"}))
	if len(r.Findings) != 0 || r.NotChecked != "" || !strings.Contains(r.Checked, "net.ipv4.tcp_rmem, net.core.somaxconn") {
		t.Errorf("healthy: %+v", r)
	}
	// No namespace read, or nothing comparable: not checked.
	if r = checkNetnsTCPGap(netnsTimeline(host, nil)); r.NotChecked == "" {
		t.Errorf("no namespace: %+v", r)
	}
	if r = checkNetnsTCPGap(netnsTimeline(host, map[string]string{"net.ipv4.tcp_rmem": "garbage"})); r.NotChecked == "" {
		t.Errorf("unreadable value: %+v", r)
	}
	// A kernel before 4.15 cannot give a pod its own tcp_rmem: the fix says so.
	tl := netnsTimeline(host, map[string]string{"net.ipv4.tcp_rmem": "4096 87380 4194304"})
	tl.Host.Kernel = "4.9.0"
	if r = checkNetnsTCPGap(tl); len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Changes[0].Why, "upgrade the kernel") {
		t.Errorf("4.9: %+v", r)
	}
}
