package kernel

import (
	"errors"
	"testing"
	"testing/fstest"
)

func TestReadCgroupSockets(t *testing.T) {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	m := fstest.MapFS{
		// v1 memory hierarchy: the root (unlimited, hierarchical total), one limited pod.
		"sys/fs/cgroup/memory/memory.kmem.tcp.usage_in_bytes":          f("1052672\n"),
		"sys/fs/cgroup/memory/memory.kmem.tcp.limit_in_bytes":          f("9223372036854771712\n"),
		"sys/fs/cgroup/memory/memory.kmem.tcp.failcnt":                 f("0\n"),
		"sys/fs/cgroup/memory/pod1/memory.kmem.tcp.usage_in_bytes":     f("1048576\n"),
		"sys/fs/cgroup/memory/pod1/memory.kmem.tcp.limit_in_bytes":     f("1048576\n"),
		"sys/fs/cgroup/memory/pod1/memory.kmem.tcp.max_usage_in_bytes": f("1048576\n"),
		"sys/fs/cgroup/memory/pod1/memory.kmem.tcp.failcnt":            f("17\n"),
		"sys/fs/cgroup/memory/idle/memory.kmem.tcp.usage_in_bytes":     f("0\n"),
		// hybrid v2 without the memory controller: skipped.
		"sys/fs/cgroup/unified/cgroup.controllers": f("cpu io\n"),
	}
	cs, err := ReadCgroupSockets(FSRoot(m, "test"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Path != "/" || cs[1].Path != "/pod1" {
		t.Fatalf("%+v", cs)
	}
	if c := cs[1]; c.Version != 1 || c.Bytes != 1<<20 || c.LimitBytes != 1<<20 || c.Failcnt != 17 || !c.HasFailcnt || c.MaxUsageBytes != 1<<20 {
		t.Errorf("pod1 %+v", c)
	}
	if cs[0].LimitBytes != 0 {
		t.Errorf("PAGE_COUNTER_MAX is no limit: %+v", cs[0])
	}

	// cgroup v2 unified: memory.stat sock, memory.max "max" is no limit.
	v2 := fstest.MapFS{
		"sys/fs/cgroup/cgroup.controllers":         f("cpuset cpu io memory pids\n"),
		"sys/fs/cgroup/kubepods/memory.stat":       f("anon 100\nfile 200\nsock 8192\nshmem 0\n"),
		"sys/fs/cgroup/kubepods/memory.max":        f("max\n"),
		"sys/fs/cgroup/kubepods/pod2/memory.stat":  f("anon 1\nsock 4096\n"),
		"sys/fs/cgroup/kubepods/pod2/memory.max":   f("1073741824\n"),
		"sys/fs/cgroup/kubepods/pod3/memory.stat":  f("anon 1\nsock 0\n"),
		"sys/fs/cgroup/kubepods/pod4/memory.stat":  f("sock garbage\n"),
		"sys/fs/cgroup/kubepods/pod2/cgroup.procs": f("1\n"),
	}
	cs, err = ReadCgroupSockets(FSRoot(v2, "test"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Path != "/kubepods" || cs[0].Bytes != 8192 || cs[0].LimitBytes != 0 || cs[1].Path != "/kubepods/pod2" || cs[1].LimitBytes != 1<<30 || cs[1].Version != 2 {
		t.Errorf("v2 %+v", cs)
	}

	if _, err := ReadCgroupSockets(FSRoot(fstest.MapFS{"proc/meminfo": f("")}, "test")); !errors.Is(err, ErrNotSupported) {
		t.Errorf("no cgroup fs: %v", err)
	}
}
