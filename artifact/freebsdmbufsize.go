package artifact

import "strings"

// FreeBSD's mbuf allocator refusing a request by its size, told in prose (round 44,
// fix49d). sys/kern/kern_mbuf.c m_get2() and m_getm2()/m_getjcl() hand out an mbuf with a
// cluster of one of the fixed sizes (MCLBYTES 2048, MJUMPAGESIZE = PAGE_SIZE, MJUM9BYTES,
// MJUM16BYTES); m_get2() returns NULL for any size above MJUMPAGESIZE whatever memory is
// free ("if (size > MJUMPAGESIZE) return (NULL);"), and its caller counts the NULL as if
// memory were short (pfsync's pfsyncs_onomem, the interface's output errors). A sentence
// that tells such a refusal on the author's system ("m_get2() refuses anything above
// MJUMPAGESIZE, which is PAGE_SIZE = 4096 on amd64") is evidence of a size ceiling of
// FreeBSD's kernel, not of a shortage of memory and not of a Linux host: named unread with
// what it proves, no finding (alloc-fail-* read Linux's page allocation failure reports).
//
// Gated: a prose line that names one of the allocator's functions and its refusal (NULL,
// "refuses", "fails") with a figure; a question is not read.

const freeBSDMbufSizeWhy = "FreeBSD's mbuf allocator refused a request by its size (sys/kern/kern_mbuf.c: m_get2() returns NULL for a size above MJUMPAGESIZE, PAGE_SIZE = 4096 on amd64, whatever memory is free; its callers count the NULL as \"no memory\", e.g. pfsync's pfsyncs_onomem and the interface's output errors): a size ceiling of FreeBSD's kernel, raised by a packet or MTU larger than the cluster, not a shortage of memory, and not a Linux host's page allocation failure; `netstat -m` (mbuf requests denied) and the interface's MTU tell the rest; headroom has no rule for FreeBSD's mbufs"

// freeBSDMbufSizeLine says whether prose line t tells FreeBSD's mbuf allocator refusing a
// request.
func freeBSDMbufSizeLine(t string) bool {
	if len(t) > 1000 || !hasDigit(t) {
		return false
	}
	named := false
	for _, f := range []string{"m_get2(", "m_get2`", "m_getm2(", "m_getjcl(", "m_getcl("} {
		if strings.Contains(t, f) {
			named = true
			break
		}
	}
	if !named || strings.Contains(t, "?") {
		return false
	}
	if !strings.Contains(t, "MJUMPAGESIZE") && !strings.Contains(t, "MCLBYTES") && !strings.Contains(t, "MJUM9BYTES") && !strings.Contains(t, "MJUM16BYTES") {
		return false // the size ceiling is named with the refusal
	}
	return strings.Contains(t, "NULL") || strings.Contains(t, "refuses") || strings.Contains(t, "refused") || strings.Contains(t, "fails")
}
