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

// bash's job-control notice and "NAME exited with code 137" are a SIGKILL: named unread, no
// OOM stated or reported. Counter-cases: another signal's notice, another exit code, advice.
func TestFix20bShellSigkillNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"./opensearch-docker-entrypoint.sh: line 116:   101 Killed                  \"$@\" \"${opensearch_opts[@]}\"\n", "bash jobs.c"},
		{"/usr/local/bin/start.sh: line 9: 4242 Killed java -Xmx2g -jar app.jar\n", "bash jobs.c"},
		{"OpenSearch exited with code 137\n", "128+9"},
		{"es01 exited with code 137\n", "128+9"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 || len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: unparsed %+v: want named (%s), no OOM", c.text, tl.Unparsed, c.word)
		}
		checkAccount(t, tl)
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
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "RLIMIT_NOFILE") || !f15Unread(tl, "RLIMIT_NPROC") || statedOOM(tl) {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
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
