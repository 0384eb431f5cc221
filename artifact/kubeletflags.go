package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// reKubeletEvictionFlag reads the kubelet's hard memory eviction threshold from its command
// line pasted as text ("--eviction-hard=nodefs.inodesFree<10%,memory.available<256Mi,..."):
// a setting, no event. A percentage needs the node's memory and is left to the live reader.
var reKubeletEvictionFlag = lazyre.New(`--eviction-hard[= ]["']?[^\s"']*?\bmemory\.available<(\d+(?:\.\d+)?(?:[KMGTPE]i?|k)?)(?:[,"'\s]|$)`)

// kubeletPasted reads, behind byte tests, the kubelet settings and node facts a text pastes:
// the --eviction-hard flag's memory.available (tl.Kubelet, which kubelet-eviction-below-reserve
// weighs against vm.min_free_kbytes) and a node's "capacity:" block's memory (kubectl get
// node -o yaml; cadvisor's MemTotal of the machine), as the host's memory when no other
// reading gave it.
func (d *doc) kubeletPasted() {
	capAt := -1
	for k, p := range d.proseLines {
		t := strings.TrimSpace(p.text)
		if t == "capacity:" || t == "Capacity:" {
			capAt = k
			continue
		}
		if capAt >= 0 && k-capAt <= 12 && strings.HasPrefix(t, "memory: ") {
			if b, ok := kubeQuantityBytes(strings.Trim(strings.TrimPrefix(t, "memory: "), `"`)); ok && b >= 16<<20 {
				d.addArtifact(KindStated, p.no, p.no, map[string]any{"node_capacity_memory_kib": b / 1024, "text": t})
				if d.tl.Host.MemTotalKB == 0 {
					d.tl.Host.MemTotalKB = b / 1024
				}
			}
			capAt = -1
			continue
		}
		if d.tl.Kubelet != nil || !strings.Contains(t, "--eviction-hard") {
			continue
		}
		if m := reKubeletEvictionFlag.FindStringSubmatch(t); m != nil {
			if b, ok := kubeQuantityBytes(m[1]); ok && b >= 0 {
				d.tl.Kubelet = &model.KubeletEviction{Threshold: m[1], Bytes: b,
					Source: fmt.Sprintf("kubelet --eviction-hard at line %d of the text", p.no)}
				d.addArtifact(KindStated, p.no, p.no, map[string]any{"kubelet_eviction_hard_memory_available": m[1], "bytes": b, "text": t})
			}
		}
	}
}
