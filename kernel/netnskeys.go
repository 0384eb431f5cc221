package kernel

// NetnsSysctl is a net.* key that every network namespace holds its own copy of, and what
// a Kubernetes pod may do about it. A pod's network namespace is not the host's: a value
// tuned on the host does not reach it unless the kernel copies it at creation, and the
// pod's only way to change it is securityContext.sysctls.
type NetnsSysctl struct {
	Key string
	// Triplet keys hold min, default and max; a namespace is below the host when any of
	// the three is.
	Triplet bool
	// The first release in which the key is per namespace is the scope table's
	// (LookupSysctlScope(Key).PerNetnsSince).
	// Creation says where a new namespace's value comes from.
	Creation string
	// PodSafeSince is the Kubernetes release that lists the key among the safe sysctls a
	// pod may set without the kubelet's --allowed-unsafe-sysctls; "" when it is not safe.
	PodSafeSince string
}

// NetnsSysctls are the per-namespace TCP settings doctor --netns compares with the host's.
var NetnsSysctls = []NetnsSysctl{
	// Per namespace since 4.15 ("tcp: Namespace-ify sysctl_tcp_rmem and sysctl_tcp_wmem");
	// tcp_sk_init (net/ipv4/tcp_ipv4.c) copies init_net's values into a namespace when it is
	// created, so a namespace created before the host was tuned keeps the old values.
	// Kubernetes 1.32 added both to the safe set (pkg/kubelet/sysctl/safe_sysctls.go, with a
	// 4.15 kernel check).
	{Key: "net.ipv4.tcp_rmem", Triplet: true,
		Creation: "copied from the host's namespace when the namespace is created (4.15+); the compiled-in default before", PodSafeSince: "1.32"},
	{Key: "net.ipv4.tcp_wmem", Triplet: true,
		Creation: "copied from the host's namespace when the namespace is created (4.15+); the compiled-in default before", PodSafeSince: "1.32"},
	// net/core/sysctl_net_core.c netns_core_table; every namespace starts at SOMAXCONN
	// (net/core/net_namespace.c), 4096 since 5.4 and 128 before. Kubernetes counts it as
	// namespaced but unsafe.
	{Key: "net.core.somaxconn",
		Creation: "SOMAXCONN in every new namespace (4096 since 5.4, 128 before), whatever the host has"},
}

// NetnsSysctlKeys lists NetnsSysctls' keys.
func NetnsSysctlKeys() []string {
	out := make([]string, len(NetnsSysctls))
	for i, k := range NetnsSysctls {
		out[i] = k.Key
	}
	return out
}
