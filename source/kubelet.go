package source

import (
	"bufio"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// The kubelet evicts pods when memory.available (the node's memory less its working set,
// pkg/kubelet/eviction) falls below its hard threshold, 100Mi unless configured
// (pkg/kubelet/apis/config/v1beta1 defaults: evictionHard memory.available "100Mi").
const kubeletDefaultEviction = "100Mi"

// DefaultKubeletConfig is where kubeadm and most distributions put the kubelet's
// configuration file.
const DefaultKubeletConfig = "var/lib/kubelet/config.yaml"

// ReadKubeletEviction finds the kubelet's memory.available hard eviction threshold on a
// live root: the flag --eviction-hard of a running kubelet, else the file its --config
// names, else DefaultKubeletConfig. configPath, when given, is read instead (a path on
// this filesystem). It returns nil and no error when no kubelet or configuration was found.
func ReadKubeletEviction(root kernel.Root, configPath string, memTotalKB int64) (ev *model.KubeletEviction, err error) {
	if configPath != "" {
		b, err := readBounded(kernel.DirRoot("/"), strings.TrimPrefix(path.Clean("/"+configPath), "/"))
		if err != nil {
			return nil, err
		}
		return evictionFromConfig(string(b), configPath, memTotalKB)
	}
	pid, args := findKubelet(root)
	if pid > 0 {
		for i, a := range args {
			v, ok := strings.CutPrefix(a, "--eviction-hard=")
			if !ok && a == "--eviction-hard" && i+1 < len(args) {
				v, ok = args[i+1], true
			}
			if ok {
				return evictionFromFlag(v, fmt.Sprintf("kubelet --eviction-hard (pid %d)", pid), memTotalKB)
			}
		}
		for i, a := range args {
			v, ok := strings.CutPrefix(a, "--config=")
			if !ok && a == "--config" && i+1 < len(args) {
				v, ok = args[i+1], true
			}
			if ok {
				b, err := readBounded(root, strings.TrimPrefix(path.Clean("/"+v), "/"))
				if err != nil {
					return nil, fmt.Errorf("kubelet (pid %d) --config: %w", pid, err)
				}
				return evictionFromConfig(string(b), v, memTotalKB)
			}
		}
	}
	if b, err := readBounded(root, DefaultKubeletConfig); err == nil {
		return evictionFromConfig(string(b), "/"+DefaultKubeletConfig, memTotalKB)
	}
	if pid > 0 {
		return evictionThreshold(kubeletDefaultEviction, fmt.Sprintf("the kubelet's default (pid %d has neither --eviction-hard nor --config)", pid), memTotalKB)
	}
	return nil, nil
}

// readBounded reads a configuration file of at most 1 MiB.
func readBounded(root kernel.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 0, 4096)
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b = append(b, buf[:n]...)
		if len(b) > 1<<20 {
			return nil, fmt.Errorf("/%s: larger than 1 MiB, not a kubelet configuration", name)
		}
		if err != nil {
			return b, nil
		}
	}
}

// findKubelet returns the pid and arguments of a process named kubelet under root's /proc.
func findKubelet(root kernel.Root) (int, []string) {
	ents, err := root.ReadDir("proc")
	if err != nil {
		return 0, nil
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := root.ReadFile("proc/" + e.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "kubelet" {
			continue
		}
		cmd, err := root.ReadFile("proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		return pid, strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")
	}
	return 0, nil
}

// evictionFromFlag reads "memory.available<100Mi,nodefs.available<10%".
func evictionFromFlag(v, src string, memTotalKB int64) (*model.KubeletEviction, error) {
	for _, part := range strings.Split(v, ",") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(part), "memory.available<"); ok {
			return evictionThreshold(t, src, memTotalKB)
		}
	}
	return evictionThreshold(kubeletDefaultEviction, src+" without memory.available: the default", memTotalKB)
}

// evictionFromConfig reads memory.available under evictionHard in a KubeletConfiguration,
// YAML (block or flow style) or JSON, without a YAML library: the one key is found by its
// name and its parent's.
func evictionFromConfig(text, name string, memTotalKB int64) (*model.KubeletEviction, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	in, indent := false, -1
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		trim := strings.TrimLeft(line, " ")
		if trim == "" || strings.HasPrefix(trim, "#") {
			continue
		}
		lead := len(line) - len(trim)
		key, val, _ := strings.Cut(trim, ":")
		key = strings.Trim(strings.TrimSpace(key), `"'{,`)
		if in && lead <= indent {
			in = false
		}
		if key == "evictionHard" {
			val = strings.TrimSpace(val)
			if i := strings.Index(val, "memory.available"); i >= 0 { // flow style or JSON on one line
				return evictionFromInline(val[i+len("memory.available"):], name, memTotalKB)
			}
			in, indent = true, lead
			continue
		}
		if in && key == "memory.available" {
			return evictionFromInline(val, name, memTotalKB)
		}
	}
	return evictionThreshold(kubeletDefaultEviction, "the kubelet's default (no evictionHard memory.available in "+name+")", memTotalKB)
}

func evictionFromInline(rest, name string, memTotalKB int64) (*model.KubeletEviction, error) {
	rest = strings.TrimLeft(rest, `"': `)
	end := strings.IndexAny(rest, `"',} `)
	if end < 0 {
		end = len(rest)
	}
	return evictionThreshold(rest[:end], name+" evictionHard", memTotalKB)
}

// evictionThreshold resolves a Kubernetes quantity ("100Mi", "1G", "512000Ki") or a
// percentage of MemTotal.
func evictionThreshold(q, src string, memTotalKB int64) (*model.KubeletEviction, error) {
	ev := &model.KubeletEviction{Threshold: q, Source: src}
	if p, ok := strings.CutSuffix(q, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f > 100 {
			return nil, fmt.Errorf("%s: eviction threshold %q is not a percentage", src, q)
		}
		if memTotalKB <= 0 {
			return nil, fmt.Errorf("%s: eviction threshold %q is a share of MemTotal, which is unknown", src, q)
		}
		ev.Bytes = int64(f / 100 * float64(memTotalKB*1024))
		return ev, nil
	}
	mult := int64(1)
	num := q
	for _, u := range []struct {
		s string
		m int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}} {
		if n, ok := strings.CutSuffix(q, u.s); ok {
			num, mult = n, u.m
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f*float64(mult) > math.MaxInt64/2 {
		return nil, fmt.Errorf("%s: eviction threshold %q is not a quantity", src, q)
	}
	ev.Bytes = int64(f * float64(mult))
	return ev, nil
}

// AddKubelet sets tl.Kubelet, the kubelet's eviction threshold: from config (doctor
// --kubelet-config), or on a live host from the running kubelet or its usual file, read
// under root. Not finding one on a live host is not an error (most hosts run no kubelet: it
// is said in NotAvailable); an unreadable config is.
func AddKubelet(tl *model.Timeline, root kernel.Root, config string) error {
	if config == "" && tl.Source.Kind != model.SourceLive {
		return nil
	}
	ev, err := ReadKubeletEviction(root, config, tl.Host.MemTotalKB)
	if err != nil {
		if config != "" {
			return fmt.Errorf("--kubelet-config: %w", err)
		}
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: "kubelet eviction threshold", Why: err.Error()})
	}
	tl.Kubelet = ev
	return nil
}
