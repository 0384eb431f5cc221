package artifact

import "strings"

// atop's system-level record pasted as an HTML table (round 44, fix49d). A reporter who
// copies atop's screen into a tracker or a wiki sometimes rebuilds it as an HTML <table>:
// atop's line labels (PRO, CPU, MEM, SWP, PAG, DSK, NET: photosyst's groups as atop prints
// them, showsys.c) become row headers with rowspan, each counter a <th> ("#tslpu", "wait
// (%)", "free (M)") and each interval a column of <td>s. The figures are this host's
// (atop's own sampling of /proc), but in this form no reader takes them: the rows are named
// unread with what they hold, so the paste is evidence (no exit 3) and raises no finding
// (direct-reclaim-stalls and swap-under-load read /proc/vmstat, sar -B or atop's PAG/SWP
// lines as text, which such a table does not give in a form headroom reads).
//
// Gated: a "<tr" line inside a <table> (the table's start within 200 lines above) whose
// rows hold a row header of atop's groups (">PRO<", ">CPU<", ">MEM<", ">SWP<", ">PAG<")
// and one of atop's own counter names (#tslpu, #tslpi, #zombie, #exit, #proc).

const atopHTMLWhy = "atop's system-level record pasted as an HTML table (its PRO/CPU/MEM/SWP/PAG lines as row groups, one column per interval: #tslpu tasks in uninterruptible sleep, CPU sys/user/wait %, summed over the CPUs, MEM tot/free/cache): this host's figures per interval, in a form headroom has no reader for; `atop -r FILE -b HH:MM` as text, or vmstat and /proc/meminfo, would reach the rules (direct-reclaim-stalls, swap-under-load read allocstall, pgscan and swap-in rates)"

// atopHTMLRow names line i unread when it is a row of an atop record's HTML table.
func (d *doc) atopHTMLRow(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.HasPrefix(t, "<tr") {
		return false
	}
	start := -1
	for j := i; j >= 0 && i-j < 200; j-- {
		s := strings.TrimSpace(d.ls[j].Text)
		if strings.HasPrefix(s, "</table") && j != i {
			return false
		}
		if strings.HasPrefix(s, "<table") {
			start = j
			break
		}
	}
	if start < 0 {
		return false
	}
	group, counter := false, false
	for j := start; j < len(d.ls) && j-start < 200; j++ {
		s := d.ls[j].Text
		if j > start && strings.HasPrefix(strings.TrimSpace(s), "</table") {
			break
		}
		for _, g := range []string{">PRO<", ">CPU<", ">MEM<", ">SWP<", ">PAG<"} {
			if strings.Contains(s, g) && strings.Contains(s, "<th") {
				group = true
			}
		}
		for _, c := range []string{">#tslpu", ">#tslpi", ">#zombie", ">#exit", ">#proc"} {
			if strings.Contains(s, c) {
				counter = true
			}
		}
	}
	if !group || !counter || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, atopHTMLWhy)
	return true
}
