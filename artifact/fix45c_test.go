package artifact

import (
	"testing"
)

// fix45c: round 40's (g177) first-run misses by class. Snippets are minimal, in the forms
// the programs print: `omero config get`'s key=value rows (omero/plugins/prefs.py) with
// jvmcfg's sizing keys (omero/install/jvmcfg.py) and Ice's properties; ZeroC Ice's logger
// reporting IceUtil::ThreadSyscallException (IceUtil/ThreadException.h) after it could not
// start a thread; PHP's memory_limit (main/main.c's ini entry) told in words or as written.

func TestFix45cOmeroConfigRead(t *testing.T) {
	for _, c := range []struct {
		name, text, program, field string
		want                       int64
	}{
		{"system_memory", "omero.jvmcfg.system_memory=30000\n", "omero", "system_memory_mb", 30000},
		{"max_system_memory", "omero.jvmcfg.max_system_memory=31000\n", "omero", "max_system_memory_mb", 31000},
		{"percent, fenced", "```\nomero.jvmcfg.percent.blitz=50\n```\n", "omero", "percent_blitz", 50},
		{"ice message size", "Ice.MessageSizeMax=500000\n", "ice", "message_size_max_kb", 500000},
		{"ice thread pool", "Ice.ThreadPool.Server.SizeMax=16\n", "ice", "thread_pool_sizemax", 16},
	} {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) != 1 || !f15Unread(tl, "no rule reads it") {
			t.Errorf("%s: unparsed %+v, want the row named", c.name, tl.Unparsed)
		}
		if tl.Host.MemTotalKB != 0 || statedOOM(tl) {
			t.Errorf("%s: host memory %d kB, stated OOM %v: a program's sizing is not the host's", c.name, tl.Host.MemTotalKB, statedOOM(tl))
		}
		found := false
		for _, a := range artifactsOf(tl, KindProgramLimit) {
			m, _ := a.Data.(map[string]any)
			found = found || m["program"] == c.program && m[c.field] == c.want
		}
		if !found {
			t.Errorf("%s: program_limit %+v, want %s %s=%d", c.name, artifactsOf(tl, KindProgramLimit), c.program, c.field, c.want)
		}
	}
	// heap_size's own syntax: named, no figure.
	tl := ParseString("omero.jvmcfg.heap_size.blitz=2g\n", "t", Options{})
	if !f15Unread(tl, "OMERO's JVM sizing") || len(artifactsOf(tl, KindProgramLimit)) != 0 {
		t.Errorf("heap_size: unparsed %+v, artifacts %+v, want named without a figure", tl.Unparsed, tl.Artifacts)
	}
}

// Rows that are not the listing: a command setting the key, a sentence, a doc's "key: value"
// list, another program's dotted key=value (a sysctl stays the sysctl reader's).
func TestFix45cOmeroConfigNotRead(t *testing.T) {
	for _, text := range []string{
		"$ omero config set omero.jvmcfg.percent.blitz 50\n",
		"I set omero.jvmcfg.system_memory=30000 last week.\n",
		"omero.jvmcfg.system_memory: 30000\n",
		"omero.jvmcfg.strategy=percent\n",
		"Ice.Default.Host=10.0.0.1\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(artifactsOf(tl, KindProgramLimit)) != 0 || f15Unread(tl, "OMERO's JVM sizing") || f15Unread(tl, "ZeroC Ice property") {
			t.Errorf("%q: artifacts %+v unparsed %+v, want no OMERO or Ice row read", text, tl.Artifacts, tl.Unparsed)
		}
	}
	tl := ParseString("vm.overcommit_memory=2\n", "t", Options{})
	if len(artifactsOf(tl, KindProgramLimit)) != 0 {
		t.Errorf("sysctl: artifacts %+v, want the sysctl reader's", tl.Artifacts)
	}
}

func TestFix45cIceThreadNamed(t *testing.T) {
	text := "!! 03/08/22 15:18:59.946 error: cannot create thread for timer:\n" +
		"   Thread.cpp:752: IceUtil::ThreadSyscallException:\n" +
		"   syscall exception: Resource temporarily unavailable\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "ZeroC Ice could not start a thread") || !f15Unread(tl, "EAGAIN") {
		t.Errorf("unparsed %+v, want Ice's thread failure named with EAGAIN's limits", tl.Unparsed)
	}
	if statedOOM(tl) || len(f15Kills(tl)) != 0 || tl.Host.MemTotalKB != 0 {
		t.Errorf("stated OOM %v, kills %d, host memory %d: a thread limit is no memory event", statedOOM(tl), len(f15Kills(tl)), tl.Host.MemTotalKB)
	}
	// Advice naming the exception is not this host's line.
	tl = ParseString("If you see IceUtil::ThreadSyscallException, raise ulimit -u.\n", "t", Options{})
	if f15Unread(tl, "ZeroC Ice could not start a thread") {
		t.Errorf("advice: unparsed %+v, want not named", tl.Unparsed)
	}
}

func TestFix45cStatedMemoryLimit(t *testing.T) {
	for _, s := range []string{
		"# memory_limit of 128M may be too low",
		"If we do increase the memory_limit to 256, for example, will this cause problems?",
		"memory_limit = 128M",
		"php_value memory_limit 256M",
		"ini_set('memory_limit', '512M');",
	} {
		if !statedMemoryLimit(s) {
			t.Errorf("%q: not read as a memory_limit with its size", s)
		}
	}
	for _, s := range []string{
		"hierarchical_memory_limit 9223372036854771712", // a cgroup v1 memory.stat row
		"memory_limiter processor: limit_mib 4000",      // OpenTelemetry's, another program
		"What memory_limit should I use for 5.0.1?",     // a question, its figure a version
		"memory_limit = -1",                             // unlimited: no size
		"the docker gives us 512 megs more",             // no setting named
	} {
		if statedMemoryLimit(s) {
			t.Errorf("%q: read as a memory_limit with its size", s)
		}
	}
	tl := ParseString("OpenEMR's backup fails.\n# memory_limit of 128M may be too low\n", "t", Options{})
	if !f15Unread(tl, "memory_limit setting") || statedOOM(tl) || tl.Host.MemTotalKB != 0 {
		t.Errorf("unparsed %+v, stated OOM %v, host %d: want the line named, no host figure", tl.Unparsed, statedOOM(tl), tl.Host.MemTotalKB)
	}
}
