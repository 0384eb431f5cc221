package artifact

import "testing"

// A sentence quoting a kernel message the host printed ("内核报OOM": the kernel reported it),
// after the dmesg lines of that message (corpus 1294): the streamed parse and the whole-text
// loop read it the same way.
func TestStreamQuotedMessageAfterLog(t *testing.T) {
	text := "线上kafka集群事故,很快根据kafka和dmesg linux内核日志定位到表面原因,\n[Tue Jun 30 19:22:29 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:31 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:31 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:32 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:32 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:35 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:36 2020] TCP: out of memory -- consider tuning tcp_mem\n[Tue Jun 30 19:22:46 2020] TCP: out of memory -- consider tuning tcp_mem\n\n“TCP: out of memory -- consider tuning tcp_mem”,内核报OOM,同时刻kafka也抛OOM异常,整个集群不可用。\n\nsockets: used 232\n"
	sameAsWhole(t, "quoted message after its log", text)
}

// A buddyinfo row inside a line of prose (FuzzStream found it): the page size its orders
// are read at is the same in the streamed parse and the whole-text loop.
func TestStreamBuddyinfoInProse(t *testing.T) {
	s := "o the abbreviations in OOM Killer memory statistics report mean? When OOM Killer or kernel reports memory state, it uses the next abbreviations Node 0 DMA: 26*4kB (M) 53*8kB (UM) 33*16kB (ME) 23*32kB (UME) 6*64kB (ME) 7*128kB (UME) 1*256kB (M) 2*512kB (ME) 0*1024kB 0*2048kB 0*4096kB = 4352kB N"
	q := quietLines(10)
	sameAsWhole(t, "alone", s)
	sameAsWhole(t, "in a log", q+s+"\n"+q)
	// As a kernel line of its own: not boring to the fast path either.
	sameAsWhole(t, "a kernel line", q+sysPrefix+dmesgStamp+s+"\n"+q)
}

// A guide's example of a log line (exampleLog), its kernel lines run on into a log of quiet
// lines longer than a window's tail (FuzzStream found it): the whole-text loop reads the
// whole run as the example, and so does the streamed parse, whose window stays open while
// the example goes on.
func TestStreamExampleRunsPastWindowTail(t *testing.T) {
	s := "inux Out of Memory OOM Killer\n\nThe Linux out of memory killer kills processes using too much memory. On a kill event you will see a line such as the following in the system log file:\n\nFeb 13 04:33:23 hostm1 kernel:"
	q := quietLines(10)
	sameAsWhole(t, "in a log", q+s+"\n"+q)
	sameAsWhole(t, "a long log after it", q+s+"\n"+quietLines(40))
}
