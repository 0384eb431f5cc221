package artifact

import (
	"fmt"
	"strconv"
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

// The kubelet prints its configuration at start ("Creating Container Manager object based on
// Node Config: {... KubeReserved:map[memory:{i:{value:209715200 scale:0} ...}]
// SystemReserved:map[...] HardEvictionThresholds:[{Signal:memory.available
// Operator:LessThan Value:{Quantity:200Mi Percentage:0} ...}]}", pkg/kubelet/cm
// container_manager_linux.go NewContainerManager, a Go %+v of cm.NodeConfig): a setting, no
// event. A terminal or a ticket often hard-wraps that one long line, so the pieces after it
// are joined back (kubeletConfigs).
var (
	reKubeletCfgHard = lazyre.New(`HardEvictionThresholds:\[[^\]]*?\{Signal:memory\.available\s*Operator:LessThan\s*Value:\{Quantity:([^\s}<]+)\s*Percentage:`)
	reKubeletCfgRes  = lazyre.New(`(Kube|System)Reserved:map\[[^\]]*?memory:\{i:\{value:(\d+)\s*scale:(-?\d+)\}`)
)

// isKubeletNodeConfig: the line that starts the dump, wherever a wrap cut it.
func isKubeletNodeConfig(t string) bool {
	return strings.Contains(t, "Node Config: {") || strings.Contains(t, "Creating Container Manager object based on")
}

// kubeletNodeConfigLine keeps line i, a kubelet line that prints its Node Config, for
// kubeletPasted, which reads it with the wrapped pieces after it.
func (d *doc) kubeletNodeConfigLine(i int) bool {
	if !isKubeletNodeConfig(d.ls[i].Text) || len(d.kubeletCfg) >= 16 {
		return false
	}
	d.kubeletCfg = append(d.kubeletCfg, proseLine{no: d.ls[i].No, text: d.ls[i].Text})
	return true
}

func (d *doc) tryKubeletNodeConfig(i int) int {
	if d.kubeletNodeConfigLine(i) {
		return 1
	}
	return 0
}

// kubeletConfigs reads the kept Node Config lines, each joined with the prose lines that
// follow it at once (a hard wrap's pieces, cut mid-word: joined without a space).
func (d *doc) kubeletConfigs() {
	for _, c := range d.kubeletCfg {
		text, last := c.text, c.no
		for _, p := range d.proseLines {
			if p.no == last+1 && len(text) < 64<<10 {
				text += strings.TrimSpace(p.text)
				last = p.no
			}
		}
		facts := map[string]any{}
		if m := reKubeletCfgHard.FindStringSubmatch(text); m != nil {
			if b, ok := kubeQuantityBytes(m[1]); ok && b >= 0 {
				facts["kubelet_eviction_hard_memory_available"], facts["bytes"] = m[1], b
				if d.tl.Kubelet == nil {
					d.tl.Kubelet = &model.KubeletEviction{Threshold: m[1], Bytes: b,
						Source: fmt.Sprintf("kubelet log line %d (Node Config HardEvictionThresholds)", c.no)}
				}
			}
		}
		for _, m := range reKubeletCfgRes.FindAllStringSubmatch(text, -1) {
			v, err1 := strconv.ParseInt(m[2], 10, 64)
			sc, err2 := strconv.Atoi(m[3])
			if err1 != nil || err2 != nil || sc < 0 || sc > 12 {
				continue
			}
			for range sc {
				v *= 10
			}
			facts[strings.ToLower(m[1])+"_reserved_memory_bytes"] = v
		}
		if len(facts) > 0 {
			d.addArtifact(KindStated, c.no, last, facts)
		}
	}
}
