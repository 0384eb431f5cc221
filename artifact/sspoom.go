package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// cPanel's SSP (the support team's "system status probe" script, cPanelSSP/SSP's ssp,
// check_for_oom, fix40a) greps /var/log/messages for the kernel's kill lines and prints the
// last ten as a digest of its own, newest first:
//
//	[WARN] * Last 3 processes killed by Linux Out of memory killer (grep "Out of memory" /var/log/messages):
//		 \_ [Sep  3 02:14:27] [pid: 1750] [cmd: mysqld] [vm: 456120 kB] [rss: 410876 kB] [swap: 0 kB]
//
// Each row is one of the kernel's own kill lines rewritten: OpenVZ's and CloudLinux 6's "Out of
// memory in UB N: OOM killed process P (comm) score S vm:NkB, rss:NkB, swap:NkB" (the row
// then has "[LVE ID: N]", a container's limit), or mm/oom_kill.c's "Killed process P (comm)
// total-vm:NkB, anon-rss:NkB, file-rss:NkB" (CentOS 6 and 7, CloudLinux 7's "in VE" with
// "[LVE ID: N]"): vm is total-vm, rss anon-rss; for those forms SSP's swap column holds the
// kill line's file-rss. So each row is the kernel's kill at second hand: an OOM kill of the
// process named, whether for the whole host or a cgroup not said (the rows with an LVE ID are
// a container's). The rows' "\_" loses its backslash to the paste's Markdown unescaping, so
// "_ [" is taken too. A row without the heading, or the heading without rows (SSP's source, a
// quote of its message), is not read.
var (
	reSSPOOMHead = lazyre.New(`^\s*(?:\[WARN\]\s*\*\s*)?Last (\d{1,2}) process(?:es)? killed by Linux Out of memory killer\b`)
	reSSPOOMRow  = lazyre.New(`^\s*\\?_ \[([A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d)\] \[pid: (\d{1,9})\] \[cmd: ([^\]]{1,64})\] (?:\[LVE ID: (\d{1,10})\] )?\[vm: (\d{1,12}) kB\] \[rss: (\d{1,12}) kB\] \[swap: ?(\d{0,12}) kB\]\s*$`)
)

// sspOOMKill is one row of SSP's digest, its columns as SSP labels them.
type sspOOMKill struct {
	Reporter string `json:"reporter"`
	Time     string `json:"time"`
	PID      int    `json:"pid"`
	Comm     string `json:"comm"`
	LVEID    string `json:"lve_id,omitempty"`
	VMKB     int64  `json:"vm_kb"`
	RSSKB    int64  `json:"rss_kb"`
	// SwapKB is SSP's swap column: the kill line's swap for the UB form, its file-rss for the
	// "Killed process" forms (SSP's own mislabel).
	SwapKB int64  `json:"swap_kb"`
	Note   string `json:"note"`
}

const sspOOMReporter = "cPanel SSP (its digest of the kernel's kill lines in /var/log/messages)"

// sspOOMDigest reads SSP's heading at line i and the rows under it.
func (d *doc) sspOOMDigest(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, "killed by Linux Out of memory killer") || d.exampleLines[d.ls[i].No] {
		return false
	}
	if reSSPOOMHead.FindStringSubmatch(t) == nil {
		return false
	}
	var rows []int
	for k := i + 1; k < len(d.ls) && !d.used[k]; k++ {
		if reSSPOOMRow.FindStringSubmatch(d.ls[k].Text) == nil {
			break
		}
		rows = append(rows, k)
	}
	if len(rows) == 0 {
		return false
	}
	d.used[i] = true
	for _, k := range rows {
		m := reSSPOOMRow.FindStringSubmatch(d.ls[k].Text)
		no := d.ls[k].No
		r := sspOOMKill{Reporter: sspOOMReporter, Time: m[1], PID: atoiOr0(m[2]), Comm: strings.TrimSpace(m[3]), LVEID: m[4],
			Note: "the kernel's OOM kill as SSP rewrote its kill line: vm is total-vm, rss anon-rss (UB/LVE forms: vm, rss); host or cgroup not said"}
		r.VMKB, _ = strconv.ParseInt(m[5], 10, 64)
		r.RSSKB, _ = strconv.ParseInt(m[6], 10, 64)
		r.SwapKB, _ = strconv.ParseInt(m[7], 10, 64)
		o := model.RuntimeOOM{Reporter: sspOOMReporter, Victim: r.Comm, PID: r.PID, Count: 1, Source: fmt.Sprintf("line %d", no)}
		if r.LVEID != "" {
			o.Scope = model.OOMScopeCgroup
			o.Container = "LVE " + r.LVEID
			r.Note = "the kernel's OOM kill inside CloudLinux LVE " + r.LVEID + " (a container's limit) as SSP rewrote its kill line"
		}
		d.used[k] = true
		d.segSeq++
		d.addArtifact(KindSSPOOMKill, d.ls[i].No, no, r)
		d.addRuntimeOOM(o)
	}
	return true
}
