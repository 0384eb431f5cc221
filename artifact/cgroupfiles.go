package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// KindCgroupMemFiles is a memory cgroup's one-value files read with cat, each value on the
// line below its command (corpus 501, a Kubernetes pod's cgroup v1 directory):
//
//	sh-4.2$ cat memory.usage_in_bytes
//	501346304
//	sh-4.2$ cat memory.max_usage_in_bytes
//	524292096
//
// v1: usage_in_bytes, max_usage_in_bytes (the page counter's watermark), limit_in_bytes,
// failcnt (times a charge hit the limit) and their memsw.* twins (mm/memcontrol-v1.c
// mem_cgroup_read_u64); v2: memory.current, memory.peak, memory.max ("max" when unlimited,
// mm/memcontrol.c). The values are bytes (failcnt a count).
const KindCgroupMemFiles = "cgroup_memory_files"

var reCatCgroupMem = lazyre.New(`(?:^|[\s$#>])cat\s+(\S*?)memory\.((?:memsw\.)?(?:usage_in_bytes|max_usage_in_bytes|limit_in_bytes|failcnt)|current|peak|max|swap\.current|swap\.max)\s*$`)

// CgroupMemFile is one such file and its value.
type CgroupMemFile struct {
	Path  string `json:"path,omitempty"`
	File  string `json:"file"`
	Value int64  `json:"value"`
	Max   bool   `json:"unlimited,omitempty"` // v2 "max"
}

func (d *doc) tryCgroupMemFile(i int) int {
	m := reCatCgroupMem.FindStringSubmatch(strings.TrimSpace(d.ls[i].Text))
	if m == nil || i+1 >= len(d.ls) {
		return 0
	}
	fs := fields(d.ls[i+1].Text)
	if len(fs) != 1 {
		return 0
	}
	f := CgroupMemFile{Path: strings.TrimSuffix(m[1], "/"), File: "memory." + m[2]}
	if fs[0] == "max" {
		f.Max = true
	} else if v, ok := atoi(fs[0]); ok {
		f.Value = v
	} else {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindCgroupMemFiles, d.ls[i].No, d.ls[i+1].No, f)
	if f.Max {
		return 2 // unlimited: nothing to compare
	}
	version := 1
	if !strings.Contains(f.File, "_in_bytes") && !strings.HasSuffix(f.File, "failcnt") {
		version = 2
	}
	// One entry per cgroup directory: the files of one pod read one after another.
	var c *model.CgroupMemory
	for k := range d.tl.CgroupMemory {
		if o := &d.tl.CgroupMemory[k]; o.Files != nil && o.Path == f.Path && o.Version == version {
			c = o
		}
	}
	if c == nil {
		d.tl.CgroupMemory = append(d.tl.CgroupMemory, model.CgroupMemory{Version: version, Path: f.Path,
			Files: &kernel.Counters{}, Source: spanSource(d.ls[i].No, d.ls[i+1].No)})
		c = &d.tl.CgroupMemory[len(d.tl.CgroupMemory)-1]
	} else {
		c.Source += ", " + spanSource(d.ls[i].No, d.ls[i+1].No)
	}
	c.Files.Set(f.File, f.Value)
	return 2
}
