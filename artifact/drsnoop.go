package artifact

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"headroom/model"
)

// bcc's drsnoop (tools/drsnoop.py) traces direct reclaim: one line per call of
// try_to_free_pages by an allocating task, the time from mm_vmscan_direct_reclaim_begin to
// _end in milliseconds and the pages it reclaimed; -T adds the time, -U the UID, -v the free
// memory when the reclaim began:
//
//	TIME(s)       UID   COMM           PID     LAT(ms) PAGES  FREE(KB)
//	107.364115000 1000  summond        17491      0.24    50     86260
//
// Each line is a task that stopped to reclaim pages itself because free memory was at the
// zone's min watermark: the stall direct-reclaim-stalls names, measured by the tracer.

// DrsnoopTrace is one run of drsnoop's lines: how many reclaims, their time, the longest.
type DrsnoopTrace struct {
	Reclaims    int     `json:"reclaims"`
	TotalMS     float64 `json:"total_ms"`
	LongestMS   float64 `json:"longest_ms"`
	LongestComm string  `json:"longest_comm"`
	LongestPID  int64   `json:"longest_pid"`
	Pages       int64   `json:"pages"`
}

// drsnoopColumns are the header's columns drsnoop prints, in its order.
var drsnoopColumns = []string{"TIME(s)", "UID", "COMM", "PID", "LAT(ms)", "PAGES", "FREE(KB)"}

// isDrsnoopHeader: drsnoop's header, COMM, PID, LAT(ms) and PAGES in that order with only
// its optional columns around them.
func isDrsnoopHeader(fs []string) bool {
	i := slices.Index(fs, "LAT(ms)")
	if i < 2 || i+1 >= len(fs) || fs[i-1] != "PID" || fs[i-2] != "COMM" || fs[i+1] != "PAGES" {
		return false
	}
	for _, f := range fs {
		if !slices.Contains(drsnoopColumns, f) {
			return false
		}
	}
	return true
}

// tryDrsnoop reads the header at line i and the reclaim lines under it, up to the first line
// that is not one (a "^C", a blank line, prose).
func (d *doc) tryDrsnoop(i int) int {
	hdr := fields(d.ls[i].Text)
	if !isDrsnoopHeader(hdr) {
		return 0
	}
	lat := slices.Index(hdr, "LAT(ms)")
	tr := &DrsnoopTrace{}
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) != len(hdr) {
			break
		}
		ms, err := strconv.ParseFloat(fs[lat], 64)
		pid, okPID := atoi(fs[lat-1])
		pages, okPages := atoi(fs[lat+1])
		if err != nil || !okPID || !okPages || ms < 0 {
			break
		}
		tr.Reclaims++
		tr.TotalMS += ms
		tr.Pages += pages
		if ms > tr.LongestMS || tr.Reclaims == 1 {
			tr.LongestMS, tr.LongestComm, tr.LongestPID = ms, fs[lat-2], pid
		}
	}
	if tr.Reclaims == 0 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.addArtifact(KindDrsnoop, first, last, tr)
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: fmt.Sprintf("lines %d-%d (bcc drsnoop: %s, pid %d)", first, last, tr.LongestComm, tr.LongestPID),
		Rates: model.Rates{model.RateTracedReclaimLongestMS: tr.LongestMS, model.RateTracedReclaims: float64(tr.Reclaims)}})
	return k - i
}

// isDrsnoopHeaderLine: the format table's test.
func isDrsnoopHeaderLine(_, t string) bool {
	return strings.Contains(t, "LAT(ms)") && isDrsnoopHeader(fields(t))
}
