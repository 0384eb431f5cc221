package artifact

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// Round 15's g76 (search and big-data JVM clusters) fixed by class (fix20b): docker events
// printed through the documented --format template, /proc/swaps with its header alone, a
// shell's or compose's notice of a child killed by SIGKILL, Solr's start-script ulimit
// warnings, and a machine named by its memory size ("a 128GB server").

// `docker events --format 'Type={{.Type}}  Status={{.Status}}  ID={{.ID}}'`: a Status=oom row
// is the container's memory cgroup at its limit. Counter-cases: the same template's die and
// exec rows, another type's row, prose naming the form.
func TestFix20bDockerEventsTemplate(t *testing.T) {
	text := "```\nType=container  Status=exec_start: cat /ok  ID=edf6b4b172edb0b46f36e2d5caa2b89e5bdd6b8403661593d9a9d1e50ca5a28f\n" +
		"Type=container  Status=oom  ID=2dc13c49a71342b0826940f6a9247e8120dba06f97a98d96117117226bf754c8\n" +
		"Type=container  Status=die  ID=2dc13c49a71342b0826940f6a9247e8120dba06f97a98d96117117226bf754c8\n```\n"
	tl, err := Parse(strings.NewReader(text), "p", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Scope != model.OOMScopeCgroup || tl.RuntimeOOMs[0].Container != "2dc13c49a713" {
		t.Errorf("want one cgroup OOM of 2dc13c49a713: %+v", tl.RuntimeOOMs)
	}
	for _, c := range []string{
		"Type=container  Status=die  ID=2dc13c49a71342b0826940f6a9247e8120dba06f97a98d96117117226bf754c8\n",
		"Type=container  Status=kill  ID=2dc13c49a713\nType=container  Status=destroy  ID=2dc13c49a713\n",
		"Type=network  Status=oom  ID=2dc13c49a713\n",
		"Type=container Status=oom ID=<id> is what the template prints for an OOM.\n",
	} {
		tl, _ := Parse(strings.NewReader(c), "p", Options{})
		if len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: no OOM: %+v", c, tl.RuntimeOOMs)
		}
	}
}

// swapTotal: the SwapTotal of the text's /proc/swaps or swapon -s table, -1 when none was read.
func swapTotal(text string) int64 {
	tl := ParseString(text, "p", Options{})
	for _, a := range artifactsOf(tl, KindMemInfo) {
		if c, ok := a.Data.(*kernel.Counters); ok {
			if v, ok := c.Get("SwapTotal"); ok {
				return v
			}
		}
	}
	return -1
}

// /proc/swaps (and swapon -s) with no device print their header alone: no swap configured,
// SwapTotal 0. Counter-cases: a header over rows it cannot read, a header run into a sentence
// on the next line, and a table with a device (its size, not 0).
func TestFix20bProcSwapsHeaderAlone(t *testing.T) {
	const hdr = "Filename                                Type            Size    Used    Priority\n"
	for _, c := range []string{
		"```\nuser@data-0:~$ sudo cat /proc/swaps\n" + hdr + "```\n\nwhich means swap is off.\n",
		"$ swapon -s\n" + hdr,
		"$ cat /proc/swaps\n" + hdr + "\nNo swap here.\n",
	} {
		if got := swapTotal(c); got != 0 {
			t.Errorf("%q: SwapTotal %d, want 0", c, got)
		}
	}
	for _, c := range []string{
		hdr + "/dev/sda2 partition 4G 0 -2\n",
		hdr + "which is what I get on every node.\n",
	} {
		if got := swapTotal(c); got != -1 {
			t.Errorf("%q: SwapTotal %d, want none read", c, got)
		}
	}
	if got := swapTotal(hdr + "/dev/dm-1                               partition       8388604 1024    -2\n"); got != 8388604 {
		t.Errorf("a device's table: SwapTotal %d", got)
	}
}

// namedNoOOM: text is read as an unread line whose why holds word, with no OOM stated,
// killed or reported by a runtime.
func namedNoOOM(t *testing.T, text, word string) {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, word) || statedOOM(tl) || len(f15Kills(tl)) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("%q: unparsed %+v: want named (%s), no OOM", text, tl.Unparsed, word)
	}
	checkAccount(t, tl)
}

// bash's job-control notice and "NAME exited with code 137" are a SIGKILL: named unread, no
// OOM stated or reported. Counter-cases: another signal's notice, another exit code, advice.
func TestFix20bShellSigkillNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"./opensearch-docker-entrypoint.sh: line 116:   101 Killed                  \"$@\" \"${opensearch_opts[@]}\"\n", "bash jobs.c"},
		{"/usr/local/bin/start.sh: line 9: 4242 Killed java -Xmx2g -jar app.jar\n", "bash jobs.c"},
		{"OpenSearch exited with code 137\n", "128+9"},
		{"es01 exited with code 137\n", "128+9"},
	} {
		namedNoOOM(t, c.text, c.word)
	}
	for _, c := range []string{
		"./run.sh: line 12:  3101 Terminated              java -jar app.jar\n",
		"./run.sh: line 12:  3101 Segmentation fault      ./a.out\n",
		"Performance analyzer exited with code 143\n",
		"If you see es01 exited with code 137, raise the VM's memory.\n",
		"The job was killed on line 12 of the script.\n",
	} {
		tl := ParseString(c, "t", Options{})
		if f15Unread(tl, "bash jobs.c") || f15Unread(tl, "128+9") {
			t.Errorf("%q: named as a SIGKILL: %+v", c, tl.Unparsed)
		}
	}
}

// Solr's bin/solr ulimit warnings: named as the process's rlimits, figures kept; no memory
// finding. Counter-case: the continuation line and the advice are no figure.
func TestFix20bSolrUlimitWarnings(t *testing.T) {
	text := "Nov 06 20:51:48 solr1 solr[24021]: *** [WARN] *** Your open file limit is currently 1024.\n" +
		"Nov 06 20:51:48 solr1 solr[24021]:  It should be set to 65000 to avoid operational disruption.\n" +
		"Nov 06 20:51:48 solr1 solr[24021]: *** [WARN] ***  Your Max Processes Limit is currently 63994.\n"
	namedNoOOM(t, text, "RLIMIT_NOFILE")
	namedNoOOM(t, text, "RLIMIT_NPROC")
	tl := ParseString(text, "t", Options{})
	got := map[string]int64{}
	for _, a := range artifactsOf(tl, KindProgramLimit) {
		m, _ := a.Data.(map[string]any)
		for k, v := range m {
			if n, ok := v.(int64); ok {
				got[k] = n
			}
		}
	}
	if got["open_files_limit"] != 1024 || got["max_processes_limit"] != 63994 || len(got) != 2 {
		t.Errorf("figures %v", got)
	}
	// Bare (a paste of the script's output) reads the same; a sentence about the check does not.
	if tl := ParseString("*** [WARN] *** Your open file limit is currently 4096.\n", "t", Options{}); !f15Unread(tl, "RLIMIT_NOFILE") {
		t.Errorf("bare: %+v", tl.Unparsed)
	}
	if tl := ParseString("Solr warns when your open file limit is currently below 65000.\n", "t", Options{}); f15Unread(tl, "RLIMIT_NOFILE") {
		t.Errorf("sentence read: %+v", tl.Unparsed)
	}
}

// "a 128GB server", "a 64 GB machine": the machine's memory stated. Counter-cases: a
// server's disk, a sentence about a limit or the heap.
func TestFix20bStatedServerSize(t *testing.T) {
	for _, c := range []struct {
		text string
		kb   int64
	}{
		{"On a 128GB server with 24 cores using a hard disk drive in a 5 node cluster.\n", 128 << 20},
		{"It runs on a 64 GB machine.\n", 64 << 20},
		{"We bought a 2TB server disk for the indices.\n", 0},
		{"The container limit is 8GB server side.\n", 0},
	} {
		tl := ParseString(c.text, "t", Options{})
		if tl.Host.MemTotalKB != c.kb {
			t.Errorf("%q: MemTotalKB %d, want %d", c.text, tl.Host.MemTotalKB, c.kb)
		}
	}
}

// programFigures: every number of the program_limit artifacts of the text, by key.
func programFigures(text string) map[string][]any {
	tl := ParseString(text, "t", Options{})
	out := map[string][]any{}
	for _, a := range artifactsOf(tl, KindProgramLimit) {
		if m, ok := a.Data.(map[string]any); ok {
			for k, v := range m {
				out[k] = append(out[k], v)
			}
		}
	}
	return out
}

// YARN's process-tree dump after its kill, the over-limit line ahead of it, and the
// container's pid: the program's figures. Counter-cases: a tree drawn with "|-" (pstree), a
// dump row without its header.
func TestFix20bYarnProcessTree(t *testing.T) {
	text := "2014-05-29 12:01:53,770 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Process tree for container: container_1_0002_01_000001 has processes older than 1 iteration running over the configured limit. Limit=1073741824, current usage = 1125031936\n" +
		"2014-05-29 12:01:53,776 WARN org.apache.hadoop.yarn.server.nodemanager.containermanager.monitor.ContainersMonitorImpl: Container [pid=2477,containerID=container_1_0002_01_000001] is running beyond physical memory limits. Current usage: 1.0 GB of 1 GB physical memory used; 1.7 GB of 5 GB virtual memory used. Killing container.\n" +
		"Dump of the process-tree for container_1_0002_01_000001 :\n" +
		"    |- PID PPID PGRPID SESSID CMD_NAME USER_MODE_TIME(MILLIS) SYSTEM_TIME(MILLIS) VMEM_USAGE(BYTES) RSSMEM_USAGE(PAGES) FULL_CMD_LINE\n" +
		"    |- 2483 2477 2477 2477 (java) 5021 548 1711837184 274360 /usr/java/latest/bin/java -Xmx1000M\n" +
		"    |- 2477 2470 2477 2477 (bash) 0 0 108650496 300 /bin/bash -c /usr/java/latest/bin/java\n"
	f := programFigures(text)
	if len(f["rss_pages"]) != 2 || f["rss_pages"][0] != int64(274360) || f["vmem_bytes"][0] != int64(1711837184) ||
		len(f["limit_bytes"]) != 1 || f["limit_bytes"][0] != int64(1073741824) || f["usage_bytes"][0] != int64(1125031936) ||
		len(f["container_pid"]) != 1 || f["container_pid"][0] != int64(2477) {
		t.Errorf("figures %v", f)
	}
	tl := ParseString(text, "t", Options{})
	if statedOOM(tl) || len(f15Kills(tl)) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("YARN's kill read as the kernel's: %+v", tl.RuntimeOOMs)
	}
	for _, c := range []string{
		"systemd-+-sshd---sshd\n        |-cron\n        |- 2483 2477 (java)\n",
		"    |- 2483 2477 2477 2477 (java) 5021 548 1711837184 274360 /usr/java/latest/bin/java\n",
	} {
		if f := programFigures(c); len(f["rss_pages"]) != 0 {
			t.Errorf("%q: read as a dump: %v", c, f)
		}
	}
}

// /proc/PID/limits rows, with or without the header (a grep of one row): the process's
// rlimits kept. Counter-cases: a sentence starting with "Max open files", another tool's
// "Max" line.
func TestFix20bProcPidLimits(t *testing.T) {
	f := programFigures("$ cat /proc/123/limits | grep files\nMax open files            4096                 4096                 files     \n")
	if len(f["max_open_files"]) != 1 || f["max_open_files"][0].(map[string]any)["soft"] != int64(4096) {
		t.Errorf("grep row: %v", f)
	}
	f = programFigures("Limit                     Soft Limit           Hard Limit           Units     \n" +
		"Max cpu time              unlimited            unlimited            seconds   \n" +
		"Max processes             63994                63994                processes \n" +
		"Max locked memory         65536                65536                bytes     \n")
	if len(f["max_processes"]) != 1 || f["max_locked_memory"][0].(map[string]any)["hard"] != int64(65536) || f["max_cpu_time"][0].(map[string]any)["soft"] != "unlimited" {
		t.Errorf("table: %v", f)
	}
	for _, c := range []string{
		"Max open files should be raised to 65536 on every node.\n",
		"Max connections 100 200\n",
	} {
		if f := programFigures(c); len(f) != 0 {
			t.Errorf("%q: read as limits: %v", c, f)
		}
	}
}

// /proc/PID/status memory fields quoted in a sentence: the process's figure, no host
// sample. Counter-cases: the field named without a value, another machine's.
func TestFix20bProcStatusVm(t *testing.T) {
	vm := func(text string) map[string]int64 {
		tl := ParseString(text, "t", Options{})
		for _, a := range artifactsOf(tl, KindStated) {
			if m, ok := a.Data.(map[string]any); ok {
				if f, ok := m["process_status_kb"].(map[string]int64); ok {
					return f
				}
			}
		}
		return nil
	}
	if f := vm("Running `sudo fgrep Swap /proc/PID/status` reports `VmSwap:\t    1980 kB`\n"); f["VmSwap"] != 1980 {
		t.Errorf("VmSwap: %v", f)
	}
	tl := ParseString("Running `sudo fgrep Swap /proc/PID/status` reports `VmSwap:\t    1980 kB`\n", "t", Options{})
	for _, s := range tl.Samples {
		if _, ok := s.Mem("SwapTotal"); ok {
			t.Errorf("a process's VmSwap read as the host's swap: %+v", s)
		}
	}
	for _, c := range []string{
		"Check VmSwap in /proc/PID/status to see what was swapped.\n",
	} {
		if f := vm(c); f != nil {
			t.Errorf("%q: %v", c, f)
		}
	}
}

// Elasticsearch's mlockall warning with the lock limit: RLIMIT_MEMLOCK named, its figures
// kept, no allocation failure or OOM. Counter-case: the limits.conf advice after it.
func TestFix20bESMemlockLimit(t *testing.T) {
	text := "[2018-09-28 03:23:58,695][WARN ][bootstrap                ] Unable to lock JVM Memory: error=12,reason=Cannot allocate memory\n" +
		"[2018-09-28 03:23:58,695][WARN ][bootstrap                ] Increase RLIMIT_MEMLOCK, soft limit: 65536, hard limit: 65536\n"
	namedNoOOM(t, text, "RLIMIT_MEMLOCK (limits.conf")
	f := programFigures(text)
	if len(f["memlock_soft_bytes"]) != 1 || f["memlock_soft_bytes"][0] != int64(65536) || f["memlock_hard_bytes"][0] != int64(65536) {
		t.Errorf("figures %v", f)
	}
	if f := programFigures("        elasticsearch soft memlock unlimited\n        elasticsearch hard memlock unlimited\n"); len(f) != 0 {
		t.Errorf("advice read: %v", f)
	}
}
