package artifact

import (
	"strings"
	"testing"
)

// fix50d: round 45's exits 3 on HPC and server lines, by class (corpus 4201, 4205-4208,
// 4224). Each reader names what the line proves; none makes an event, a kill or a finding.

// namedWithoutEvents: line no of text is named unread with want, and the parse made no
// event and no runtime OOM.
func namedWithoutEvents(t *testing.T, text string, no int, want string) {
	t.Helper()
	if why := unreadWhyAt(text, no); why != want {
		t.Errorf("line %d named %q, want %q", no, why, want)
	}
	if tl := ParseString(text, "t", Options{}); len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("read as an event: %+v %+v", tl.Events, tl.RuntimeOOMs)
	}
}

func TestFix50dUCXBehindMpirunPrefix(t *testing.T) {
	// corpus 4201: mpirun --timestamp-output --tag-output, then UCX's line with its padded pid.
	const text = "Output:\n```sh\nSat Jun  2 09:45:46 2018[1,2076]<stdout>:[1527921946.615007] [clx-orion-049:8972 :0]          mpool.c:176  UCX  ERROR Failed to allocate memory pool chunk: Out of memory\n```\n"
	namedWithoutEvents(t, text, 3, ucxNoMemoryWhy)
	// UCX's line without the prefix, its pid unpadded: the same reason.
	if why := unreadWhyAt("[1527921946.615007] [node1:18972:0]          mpool.c:176  UCX  ERROR Failed to allocate memory pool chunk: Out of memory\n", 1); why != ucxNoMemoryWhy {
		t.Errorf("bare UCX line named %q", why)
	}
	// Another UCX error behind the prefix keeps the generic reason, not the memory one.
	if why := unreadWhyAt("Sat Jun  2 09:45:46 2018[1,7]<stderr>:[1527921946.615007] [h:8972 :0]     ib_iface.c:520  UCX  ERROR ibv_create_cq() failed: Invalid argument\n", 1); why != ucxLineWhy {
		t.Errorf("another UCX error named %q, want ucxLineWhy", why)
	}
	// Counter-cases: the same words in prose, in a question, or another program's line
	// behind the MPI prefix are no UCX line.
	for _, s := range []string{
		"We get Failed to allocate memory pool chunk: Out of memory from UCX on 89 nodes.\n",
		"Why does UCX print ERROR Failed to allocate memory pool chunk: Out of memory?\n",
		"Sat Jun  2 09:45:46 2018[1,2076]<stdout>:MPI_Alloc_mem: Out of memory\n",
	} {
		if why := unreadWhyAt(s, 1); why == ucxNoMemoryWhy || why == ucxLineWhy {
			t.Errorf("%q named as UCX's line", s)
		}
	}
	if got := mpirunOutputTail("[1,2]<stdout>:hello"); got != "hello" {
		t.Errorf("tag-only prefix: %q", got)
	}
	if got := mpirunOutputTail("see [1,2] <stdout>: hello"); !strings.HasPrefix(got, "see") {
		t.Errorf("prose cut: %q", got)
	}
}

func TestFix50dPBSLogRecord(t *testing.T) {
	// corpus 4206: OpenPBS's pbs_python and pbs_mom records; 4207: Torque's, with
	// milliseconds, a two-digit event type and the padded "pbs_mom.PID".
	const openpbs = "the node went offline.\n\n02/13/2025 18:33:45;0001;pbs_python;Svr;pbs_python;PBS server internal error (15011) in pbs_python_load_python_types, /usr/local/lib/python3.9/lib-dynload/math.cpython-39-x86_64-linux-gnu.so: undefined symbol: PyExc_MemoryError\n02/13/2025 18:33:45;0100;pbs_mom;Hook;pbs_cgroups;Internal server error encountered. Skipping hook pbs_cgroups\n"
	namedWithoutEvents(t, openpbs, 3, pbsLogRecordWhy) // PyExc_MemoryError is a symbol's name
	namedWithoutEvents(t, openpbs, 4, pbsLogRecordWhy)
	const torque = "```\n11/20/2015 12:07:14.476;01;   pbs_mom.1480;Svr;pbs_mom;LOG_ERROR::trq_cg_create_task_cgroups, Failed to get allocation for task_index 2: error 15004\n```\n"
	if why := unreadWhyAt(torque, 2); why != pbsLogRecordWhy {
		t.Errorf("Torque line named %q", why)
	}
	// Counter-cases: a date in a sentence, a CSV row, a doc's field list.
	for _, s := range []string{
		"On 02/13/2025 18:33:45 the node went offline; we restarted pbs_mom; no luck.\n",
		"02/13/2025 18:33:45;12;34;56;78\n",
		"The format is DATE TIME;EVENT;DAEMON;CLASS;OBJECT;MESSAGE (0001 is error).\n",
	} {
		if pbsLogRecord(strings.TrimSpace(s)) {
			t.Errorf("%q read as a PBS record", s)
		}
	}
}

func TestFix50dEjabberdOverloadKill(t *testing.T) {
	// corpus 4224: error_logger's reports glued to the next header.
	const text = "2018-12-28 13:26:55 =ERROR REPORT====\nKilled 29 process(es) consuming more than 19715 message(s) each2018-12-28 13:27:26 =ERROR REPORT====\n     Reason:     killed\n"
	namedWithoutEvents(t, text, 2, ejabberdOverloadWhy)
	// Counter-cases: the kernel's kill, a sentence, a question.
	for _, s := range []string{
		"Out of memory: Killed process 1234 (beam.smp) total-vm:123kB",
		"ejabberd killed 29 processes consuming more than 19715 messages each, I think",
		"Why were 29 process(es) consuming more than 19715 message(s) each killed?",
	} {
		if ejabberdOverloadKill(s) {
			t.Errorf("%q read as ejabberd's watchdog", s)
		}
	}
}

func TestFix50dViewerRow(t *testing.T) {
	// corpus 4208: IML's log page flattened, "DATE TIME | HOST | SERVICE | MESSAGE".
	const row = "2018-05-15 18:15:29 | chpc-oss03. | kernel | LustreError: 9536:0:(ofd_dev.c:1784:ofd_create_hdl())lustre-OST00088: unable to precreate: rc = -116"
	ls := SplitLines(row + "\n2018-05-15 18:15:29 | chpc-mds01| kernel | LustreError: 6573:0:(osp_precreate.c:634:osp_precreate_send()) Skipped 77 previous similar messages\n")
	if len(ls) < 2 {
		t.Fatalf("lines: %d", len(ls))
	}
	l := ls[0]
	if !l.Kernel || l.Host != "chpc-oss03" || l.Stamp != "2018-05-15 18:15:29" || !strings.HasPrefix(l.Text, "LustreError: 9536:0:") {
		t.Errorf("row read as kernel=%v host=%q stamp=%q text=%q", l.Kernel, l.Host, l.Stamp, l.Text)
	}
	if !ls[1].Kernel || ls[1].Host != "chpc-mds01" {
		t.Errorf("row without a space before the bar: kernel=%v host=%q", ls[1].Kernel, ls[1].Host)
	}
	tl := ParseString(row+"\n", "t", Options{})
	if len(tl.Events) != 0 {
		t.Errorf("rc = -116 (ESTALE) read as an event: %+v", tl.Events)
	}
	// Counter-cases: a markdown table's row of figures, a separator row, a sentence with bars.
	for _, s := range []string{
		"2018-05-15 18:15:29 | 12 | 34 | 56",
		"-- | -- | -- | --",
		"2018-05-15 18:15:29 we saw | this | and | that",
	} {
		if l := SplitLines(s + "\n")[0]; l.Kernel || l.Syslog {
			t.Errorf("%q read as a log row: tag=%q", s, l.Tag)
		}
	}
}
