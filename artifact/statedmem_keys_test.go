package artifact

import "testing"

// A size at a line's end followed on the next line by a dump's key that starts with "Memory"
// ("Current Memory Usage: 21.7M" then "Memory Min: 0B", oomctl and systemd-oomd; "cpu: 25m"
// then "memory: 5Gi", kubectl describe) is no statement of the host's RAM. Before, the
// joined lines read as "21.7M Memory", "25m memory" and the host had 21.7 MiB. Counter-case:
// a sentence wrapped between the size and its noun still states it.
func TestStatedMemoryNotFromNextKey(t *testing.T) {
	for name, text := range map[string]string{
		"oomctl":  "Path: /user.slice/app.slice/x.service\n        Current Memory Usage: 21.7M\n        Memory Min: 0B\n        Memory Low: 0B\n",
		"kubectl": "    Requests:\n      cpu:      25m\n      memory:   5Gi\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Host.MemTotalKB != 0 {
			t.Errorf("%s: host memory %d kB read from a dump's keys", name, tl.Host.MemTotalKB)
		}
	}
	wrapped := "The service runs on a dedicated 64 GB\nmemory server in our rack, and it swaps.\n"
	if tl := ParseString(wrapped, "p", Options{}); tl.Host.MemTotalKB != 64<<20 {
		t.Errorf("wrapped sentence: host memory %d kB, want %d", tl.Host.MemTotalKB, 64<<20)
	}
}
