package diagnose

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// netns-tcp-gap: a pod's network namespace has its own copy of the TCP settings
// (kernel.NetnsSysctls). tcp_rmem and tcp_wmem are copied from the host's namespace when
// the namespace is created (net/ipv4/tcp_ipv4.c tcp_sk_init, 4.15+), so tuning the host
// afterwards, or on a kernel before 4.15, leaves every existing pod on the old values;
// somaxconn starts at SOMAXCONN in every namespace. A namespace below the host is the
// host-vs-pod gap: the host looks tuned and the pods' connections are not. The fix is in
// the pod spec (securityContext.sysctls), not on the host.
func init() {
	Register(Rule{
		ID:     "netns-tcp-gap",
		Title:  "a network namespace's TCP settings are below the host's",
		Family: FamilyNetwork,
		Check:  checkNetnsTCPGap,
	})
}

func checkNetnsTCPGap(tl *model.Timeline) Result {
	ns := tl.Netns
	if ns == nil {
		return NotChecked("no other network namespace read (doctor --netns NAME or --pid PID)")
	}
	kver, kOK := tl.Host.KernelVersion()
	var (
		ev      []Evidence
		changes []model.Change
		checked []string
	)
	for _, k := range kernel.NetnsSysctls {
		hv, hsrc, ok := tl.Sysctl(k.Key)
		nv, nok := ns.Sysctls[k.Key]
		if !ok || !nok {
			continue
		}
		h, ok1 := kernel.SysctlInts(hv)
		n, ok2 := kernel.SysctlInts(nv)
		if !ok1 || !ok2 || len(h) != len(n) || (k.Triplet && len(h) != 3) {
			continue
		}
		checked = append(checked, k.Key)
		below := false
		for i := range h {
			below = below || n[i] < h[i]
		}
		if !below {
			continue
		}
		ev = append(ev,
			Evidence{What: k.Key + " on the host", Value: hv, Source: hsrc},
			Evidence{What: k.Key + " in " + ns.Name, Value: nv, Source: ns.Name + " /proc/sys/" + strings.ReplaceAll(k.Key, ".", "/")})
		changes = append(changes, model.Change{Kind: model.ChangeOther,
			Key:     "pod securityContext.sysctls " + k.Key,
			Current: nv, Recommended: hv, Rule: "netns-tcp-gap",
			Why: netnsFix(k, kver, kOK)})
	}
	if len(checked) == 0 {
		return NotChecked("none of %s read both on the host and in %s", strings.Join(kernel.NetnsSysctlKeys(), ", "), ns.Name)
	}
	if len(ev) == 0 {
		return Healthy("%s in %s at or above the host's", strings.Join(checked, ", "), ns.Name)
	}
	return Fired(Finding{
		ID:       "netns-tcp-gap",
		Severity: Warning,
		Title:    fmt.Sprintf("%s runs with TCP settings below the host's", ns.Name),
		Evidence: ev,
		Explanation: "Each network namespace has its own copy of these settings. The host's values do not " +
			"reach a namespace created before they were set (tcp_rmem and tcp_wmem are copied at creation, 4.15+), " +
			"and somaxconn starts at the kernel's default in every namespace, so connections in this namespace " +
			"run with smaller buffers or queues than the host's tuning suggests. Set them in the pod spec.",
		Changes: changes,
	})
}

// netnsFix says how a pod sets the key, and on which kernels and Kubernetes releases.
func netnsFix(k kernel.NetnsSysctl, kver kernel.KernelVersion, kOK bool) string {
	var b strings.Builder
	b.WriteString("securityContext.sysctls: [{name: " + k.Key + ", value: ...}]. ")
	if k.PodSafeSince != "" {
		fmt.Fprintf(&b, "A safe sysctl since Kubernetes %s (any pod may set it)", k.PodSafeSince)
	} else {
		b.WriteString("Namespaced but not a safe sysctl: the kubelet must allow it with --allowed-unsafe-sysctls=" + k.Key)
	}
	if since := kernel.LookupSysctlScope(k.Key).PerNetnsSince; since.Known {
		fmt.Fprintf(&b, "; per namespace only on kernels %d.%d and later", since.Major, since.Minor)
		if kOK && !kver.AtLeast(since.Major, since.Minor, 0) {
			fmt.Fprintf(&b, ", and this host runs %s: the pod cannot set it, upgrade the kernel", kver)
		}
	}
	b.WriteString(". A new namespace gets: " + k.Creation + ".")
	return b.String()
}
