// Package netlab is the substrate of headroom's network-namespace lab: it builds throwaway
// hosts (network namespaces) joined by veth links or by a userspace delay line on TUN, shapes
// them with HTB/TBF (and IFB for ingress), sets sysctls inside each namespace (and, when
// allowed, in the initial one, journaled and restored), creates memory cgroups, zram swap and
// scratch directories for helper processes, runs our own bulk-TCP workload across a link,
// and measures what the real kernel did: goodput per stream, retransmits, peak TCP memory,
// ping RTT, and counter snapshots of a namespace. It knows nothing of scenarios, settings
// sets or diagnosis: package lab builds those on top of it (as tailscale keeps its
// tstest/natlab/vnet apart from the tests that use it).
//
// Everything the lab creates lives inside namespaces named "hr-<runid>-<host>" (bind-mounted
// under /run/netns like `ip netns add`, so `ip netns list` and `ip netns exec` see them) and
// uses addresses from 198.18.0.0/15 (RFC 2544's benchmarking range) that exist only inside
// those namespaces. Nothing is sent to any other address. Teardown runs on success, failure,
// panic and cancellation (SIGINT/SIGTERM through the caller's context); Cleanup sweeps the
// leftovers of runs that were killed outright, identified by an owner file holding the pid
// and process start time of the run.
//
// The kernel family this was built on (6.18, firecracker-style config) has neither netem nor
// fq, so delay comes from DelayLine: goroutines that move packets between TUN devices in two
// namespaces and hold each one for the configured one-way delay. The TUN devices use
// IFF_VNET_HDR and TUNSETOFFLOAD so 64 KB GSO packets cross the line in one read and one
// write, which is what lets a userspace delay line carry more than 1 Gbit/s.
package netlab
