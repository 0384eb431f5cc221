package diagnose

import (
	"strings"
	"testing"
)

// g267 (KubeFATE 64, kubernetes 112927, neonKUBE 1897, treetracker 49): a kubelet before
// 1.19 prints its eviction message without the threshold; an eviction for memory still says
// a memory threshold was met, and the admission's "The node had condition: [MemoryPressure]"
// says the condition was set.
func TestFix66aEvictedWithoutThreshold(t *testing.T) {
	for name, text := range map[string]string{
		"event": "4m11s       Warning   Evicted               pod/egg-1    The node was low on resource: memory. Container egg was using 5053216Ki, which exceeds its request of 0.\n",
		"describe, wrapped mid-word": "Status:         Failed\nReason:         Evicted\n" +
			"Message:        The node was low on resource: memory. Container treetracker-pgpool was using 1275700Ki, which e\nxceeds its request of 0.\n",
		"admission": "4m7s        Warning   Evicted               pod/egg-2    The node had condition: [MemoryPressure].\n",
	} {
		d, _ := rootOf(t, text)
		f := findingOf(d, "kubelet-eviction-signal")
		if f == nil || f.Severity != Warning || !evidenceHas(*f, "node condition MemoryPressure", "True (Evicted)") {
			t.Errorf("%s: %+v", name, f)
		}
	}
	for name, text := range map[string]string{
		"storage":          "Message:        The node was low on resource: ephemeral-storage. Container app was using 48Ki, which exceeds its request of 0.\n",
		"disk condition":   "4m7s        Warning   Evicted               pod/egg-2    The node had condition: [DiskPressure].\n",
		"condition, prose": "Pods get evicted when the node had condition: MemoryPressure, as the docs say.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "kubelet-eviction-signal"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}

// g265 (slskd 1800): `ss -ltn` quoted with its header and row ending at the local address,
// the port replaced by a placeholder; Recv-Q 4097 over Send-Q 4096 is a full accept queue.
func TestFix66bSSCutAfterLocal(t *testing.T) {
	const table = "  ```\n  State   Recv-Q  Send-Q  Local Address:Port\n  LISTEN  4097    4096    0.0.0.0:<listen_port>\n  ```\n"
	d, _ := rootOf(t, "- `ss -ltn` on the listen port:\n"+table)
	if f := findingOf(d, "listen-overflow"); f == nil || f.Severity != Warning {
		t.Fatalf("listen-overflow: %+v (%v)", f, ids(d))
	}
	for name, text := range map[string]string{
		"queue empty":      strings.Replace(table, "4097", "0", 1),
		"not a port":       strings.Replace(table, "0.0.0.0:<listen_port>", "0.0.0.0:<>", 1),
		"no queue numbers": strings.Replace(table, "4097    4096", "many    4096", 1),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "listen-overflow"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}
