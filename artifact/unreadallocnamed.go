package artifact

import (
	"strings"

	"headroom/model"
)

// The kernel's allocation-failure message named in prose, with no report (issue 29, round
// 13: corpus 1672, a Japanese blog explaining that e1000 and tg3 print "page allocation
// failure" under load because netdev_alloc_skb does not set __GFP_NOWARN). Such a text names
// evidence of this domain that no rule can judge without the report itself (the header with
// process, order and mode, the Mem-Info after it); before, it exited 3 as if it held
// nothing. Its lines are listed as unread with what they name, and nothing is diagnosed from
// them: a sentence about the message proves no failure on any host.
//
// Gated as namedNetLoss: once, after everything else is read, only when nothing was read
// and no line was listed; a substring search over the prose lines already kept. "No page
// allocation failure in dmesg" is an expectation, not listed.

const allocNamedWhy = "the kernel's \"page allocation failure\" message named in prose, with no report: its header (process, order, mode), call trace and the Mem-Info after it are not in the text (`dmesg | grep -A 60 'page allocation failure'` prints them); headroom judges the report, not the sentence"

// retryNamedWhy (fix33b, corpus 2819: a runc issue's title quoting "XFS: runc:[1:CHILD](3580)
// possible memory allocation deadlock in kmem_zone_alloc (mode:0x82d0)"): a storage stack's
// retry warning (XFS's fs/xfs/kmem.c, SPL's spl-kmem.c) quoted in a title or a sentence,
// not logged in the text.
const retryNamedWhy = "a storage stack's retry warning (XFS's or OpenZFS SPL's \"possible memory allocation deadlock\") named in prose, with no log line: it says an allocation that may not fail was retried, not which memory was short (the host's, or a memory cgroup's kernel-memory limit charged by the caller); the logged lines and the memory state beside them (`dmesg | grep -B5 -A30 'memory allocation deadlock'`, /proc/meminfo, the container's memory.kmem.* files) are what headroom reads"

// allocNamedWords are the messages' own words, as the kernel prints them (mm/page_alloc.c
// warn_alloc: "%s: page allocation failure: order:%u", "page allocation stalls for" since
// 4.9; XFS's and SPL's "possible memory allocation deadlock"), in the lower case a sentence
// may write them, each with what its listed line says.
var allocNamedWords = []struct{ words, why string }{
	{"page allocation failure", allocNamedWhy},
	{"page allocation stall", allocNamedWhy},
	{"possible memory allocation deadlock", retryNamedWhy},
}

// maxAllocNamedLines bounds the lines listed.
const maxAllocNamedLines = 6

// namedAllocFailure lists the prose lines that name the allocation-failure message when the
// text holds nothing else headroom reads.
func (d *doc) namedAllocFailure() {
	if !NothingRead(d.tl) || len(d.tl.Unparsed) > 0 {
		return
	}
	listed := 0
	for _, p := range d.proseLines {
		if listed >= maxAllocNamedLines {
			break
		}
		why := allocNamedLine(p.text)
		if why == "" {
			continue
		}
		d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: p.no, LastLine: p.no, Why: why})
		if d.tl.Lines != nil {
			d.tl.Lines.Prose-- // counted as prose when it was kept; now it is listed instead
			d.tl.Lines.Unparsed++
		}
		listed++
	}
}

// allocNamedLine: what prose line t names, "" when it names none of the messages or a
// negation stands right before it.
func allocNamedLine(t string) string {
	if len(t) > maxErrnoLineBytes || strings.IndexByte(t, 'l') < 0 {
		return ""
	}
	l := strings.ToLower(t)
	for _, w := range allocNamedWords {
		k := strings.Index(l, w.words)
		if k < 0 {
			continue
		}
		if reNegated.MatchString(l[max(0, k-16):k]) {
			return ""
		}
		return w.why
	}
	return ""
}
