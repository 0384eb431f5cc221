package source

import (
	"strings"
	"testing"
	"testing/fstest"

	"headroom/kernel"
)

func TestKubeletEvictionConfig(t *testing.T) {
	const memKB = 16 << 20 // 16 GiB
	for _, c := range []struct {
		name, text string
		bytes      int64
		threshold  string
	}{
		{"block", "kind: KubeletConfiguration\nevictionHard:\n  nodefs.available: \"10%\"\n  memory.available: \"200Mi\"\nevictionSoft:\n  memory.available: 1Gi\n", 200 << 20, "200Mi"},
		{"flow", "evictionHard: {memory.available: 500Mi, nodefs.available: 10%}\n", 500 << 20, "500Mi"},
		{"json", "{\n  \"kind\": \"KubeletConfiguration\",\n  \"evictionHard\": {\n    \"imagefs.available\": \"15%\",\n    \"memory.available\": \"1G\"\n  }\n}\n", 1e9, "1G"},
		{"percent", "evictionHard:\n  memory.available: 5%\n", memKB * 1024 / 20, "5%"},
		{"soft only: the default hard", "evictionSoft:\n  memory.available: 1Gi\n", 100 << 20, "100Mi"},
		{"other key after the block", "evictionHard:\n  nodefs.available: 10%\nmemory.available: 1Gi\n", 100 << 20, "100Mi"},
	} {
		ev, err := evictionFromConfig(c.text, "cfg", memKB)
		if err != nil || ev.Bytes != c.bytes || ev.Threshold != c.threshold {
			t.Errorf("%s: %+v %v, want %d (%s)", c.name, ev, err, c.bytes, c.threshold)
		}
	}
	for _, bad := range []string{"evictionHard:\n  memory.available: lots\n", "evictionHard:\n  memory.available: 140%\n"} {
		if ev, err := evictionFromConfig(bad, "cfg", memKB); err == nil {
			t.Errorf("%q: %+v, want an error", bad, ev)
		}
	}
	if _, err := evictionFromConfig("evictionHard:\n  memory.available: 5%\n", "cfg", 0); err == nil {
		t.Error("a percentage without MemTotal must be an error")
	}
}

func TestReadKubeletEviction(t *testing.T) {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	cmdline := func(args ...string) *fstest.MapFile { return f(strings.Join(args, "\x00") + "\x00") }

	// A running kubelet's flag wins.
	m := fstest.MapFS{
		"proc/1/comm":                 f("systemd\n"),
		"proc/1/cmdline":              cmdline("/sbin/init"),
		"proc/812/comm":               f("kubelet\n"),
		"proc/812/cmdline":            cmdline("/usr/bin/kubelet", "--config=/etc/kubernetes/kubelet.yaml", "--eviction-hard=nodefs.available<10%,memory.available<300Mi"),
		"etc/kubernetes/kubelet.yaml": f("evictionHard:\n  memory.available: 50Mi\n"),
		"var/lib/kubelet/config.yaml": f("evictionHard:\n  memory.available: 60Mi\n"),
		"proc/self":                   f(""),
		"proc/812/status":             f(""),
		"proc/sys/vm/min_free_kbytes": f("67584\n"),
		"proc/913/comm":               f("kubelet-helper\n"),
		"proc/913/cmdline":            cmdline("kubelet-helper"),
	}
	ev, err := ReadKubeletEviction(kernel.FSRoot(m, "t"), "", 1<<20)
	if err != nil || ev.Threshold != "300Mi" || ev.Source != "kubelet --eviction-hard (pid 812)" {
		t.Errorf("flag: %+v %v", ev, err)
	}
	// Without the flag: the file its --config names.
	m["proc/812/cmdline"] = cmdline("/usr/bin/kubelet", "--config", "/etc/kubernetes/kubelet.yaml")
	if ev, err = ReadKubeletEviction(kernel.FSRoot(m, "t"), "", 1<<20); err != nil || ev.Threshold != "50Mi" {
		t.Errorf("--config: %+v %v", ev, err)
	}
	// Neither: the usual file.
	m["proc/812/cmdline"] = cmdline("/usr/bin/kubelet")
	if ev, err = ReadKubeletEviction(kernel.FSRoot(m, "t"), "", 1<<20); err != nil || ev.Threshold != "60Mi" {
		t.Errorf("usual file: %+v %v", ev, err)
	}
	// No file either: the kubelet's default.
	delete(m, "var/lib/kubelet/config.yaml")
	if ev, err = ReadKubeletEviction(kernel.FSRoot(m, "t"), "", 1<<20); err != nil || ev.Threshold != "100Mi" || !strings.Contains(ev.Source, "default") {
		t.Errorf("default: %+v %v", ev, err)
	}
	// No kubelet, no file: nothing, no error.
	delete(m, "proc/812/comm")
	if ev, err = ReadKubeletEviction(kernel.FSRoot(m, "t"), "", 1<<20); err != nil || ev != nil {
		t.Errorf("no kubelet: %+v %v", ev, err)
	}
	// A --config that cannot be read is an error.
	m["proc/812/comm"] = f("kubelet\n")
	m["proc/812/cmdline"] = cmdline("/usr/bin/kubelet", "--config=/missing.yaml")
	if _, err = ReadKubeletEviction(kernel.FSRoot(m, "t"), "", 1<<20); err == nil {
		t.Error("unreadable --config: no error")
	}
}
