package artifact

import (
	"strings"
	"testing"
)

func parseKinds(t *testing.T, text string) map[string][]any {
	t.Helper()
	tl, err := Parse(strings.NewReader(text), "paste", Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string][]any{}
	for _, a := range tl.Artifacts {
		kinds[a.Kind] = append(kinds[a.Kind], a.Data)
	}
	return kinds
}

// cgroup v2 memory.stat (mm/memcontrol.c memory_stat_format; keys in
// Documentation/admin-guide/cgroup-v2.rst) indented as a paste put it: read as memory.stat
// in bytes, not as /proc/vmstat, and its bare keys (kernel, percpu, sock, slab) kept.
func TestCgroupMemStatV2Indented(t *testing.T) {
	pad := strings.Repeat(" ", 27)
	text := "```bash\n" + pad + "kernel 1298432\n" + pad + "kernel_stack 81920\n" + pad + "percpu 62600\n" +
		pad + "sock 0\n" + pad + "anon_thp 125829120\n" + pad + "slab 422488\n" + pad + "workingset_refault_file 0\n```\n"
	kinds := parseKinds(t, text)
	if len(kinds[KindVMStatFile]) != 0 {
		t.Fatalf("memory.stat read as /proc/vmstat: %+v", kinds[KindVMStatFile])
	}
	if len(kinds[KindCgroupMemStat]) != 1 {
		t.Fatalf("artifacts: %v", kinds)
	}
	ms := kinds[KindCgroupMemStat][0].(*CgroupMemStat)
	if ms.Version != 2 || ms.Stat.Len() != 7 {
		t.Fatalf("version %d, %d keys %v", ms.Version, ms.Stat.Len(), ms.Stat.Names())
	}
	for name, want := range map[string]int64{"kernel": 1298432, "percpu": 62600, "slab": 422488, "anon_thp": 125829120} {
		if got, ok := ms.Stat.Get(name); !ok || got != want {
			t.Errorf("%s = %d (%v), want %d", name, got, ok, want)
		}
	}
}

// v1 memory.stat (mm/memcontrol-v1.c memcg1_stat_format) is recognised by its own keys.
func TestCgroupMemStatV1(t *testing.T) {
	kinds := parseKinds(t, "cache 4096\nrss 8192\nmapped_file 0\npgfault 12\ntotal_rss 8192\n")
	if len(kinds[KindCgroupMemStat]) != 1 || kinds[KindCgroupMemStat][0].(*CgroupMemStat).Version != 1 {
		t.Fatalf("artifacts: %v", kinds)
	}
}

// A /proc/vmstat excerpt stays /proc/vmstat: its names carry nr_ (mm/vmstat.c vmstat_text).
func TestCgroupMemStatNotVMStat(t *testing.T) {
	kinds := parseKinds(t, "nr_free_pages 12345\nnr_inactive_anon 100\nnr_shmem 7\npgfault 99\nunevictable_pgs_culled 0\n")
	if len(kinds[KindCgroupMemStat]) != 0 || len(kinds[KindVMStatFile]) != 1 {
		t.Fatalf("artifacts: %v", kinds)
	}
}
