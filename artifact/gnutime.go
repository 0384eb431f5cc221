package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// GNU time's report of one command's resources (fix44c, from GNU time's time.c: its default
// format and its status lines), the bioinformatics tools' usual "/usr/bin/time CMD":
//
//	"%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k"
//	"%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps"
//
// preceded, when the command did not exit 0, by "Command terminated by signal N" or "Command
// exited with non-zero status N". A mail client may wrap the first line before
// "NNNmaxresident)k" (corpus 3737): the two halves are one line. %M is the command's peak
// resident set in kB (getrusage's ru_maxrss), %W its swaps: the command's figures, never the
// host's memory or free memory; read (kind gnu_time), no finding of their own. Signal 9 is
// SIGKILL, which the kernel's OOM killer, a memory cgroup's, a scheduler's kill and any kill -9
// all send: the status line is named unread and kept as a SIGKILL notice (no OOM by itself).
const KindGNUTime = "gnu_time"

// GNUTime is one GNU time report.
type GNUTime struct {
	UserS         float64 `json:"user_s"`
	SystemS       float64 `json:"system_s"`
	Elapsed       string  `json:"elapsed"`
	CPUPct        int     `json:"cpu_pct,omitempty"` // "?%" when elapsed was 0
	AvgTextKB     int64   `json:"avgtext_kb"`
	AvgDataKB     int64   `json:"avgdata_kb"`
	MaxResidentKB int64   `json:"maxresident_kb"`
	Inputs        int64   `json:"inputs,omitempty"`
	Outputs       int64   `json:"outputs,omitempty"`
	MajorFaults   int64   `json:"major_faults,omitempty"`
	MinorFaults   int64   `json:"minor_faults,omitempty"`
	Swaps         int64   `json:"swaps,omitempty"`
	Signal        int     `json:"signal,omitempty"`      // "Command terminated by signal N"
	ExitStatus    int     `json:"exit_status,omitempty"` // "Command exited with non-zero status N"
}

var (
	reGNUTimeUsage  = lazyre.New(`^\s*(\d{1,12}(?:\.\d{1,3})?)user (\d{1,12}(?:\.\d{1,3})?)system (\d[\d:.]{0,16})elapsed (\d{1,6}|\?)%CPU \((\d{1,15})avgtext\+(\d{1,15})avgdata(?:\s+(\d{1,15})maxresident\)k)?\s*$`)
	reGNUTimeMaxRes = lazyre.New(`^\s*(\d{1,15})maxresident\)k\s*$`)
	reGNUTimeIO     = lazyre.New(`^\s*(\d{1,15})inputs\+(\d{1,15})outputs \((\d{1,15})major\+(\d{1,15})minor\)pagefaults (\d{1,15})swaps\s*$`)
	reGNUTimeStatus = lazyre.New(`^\s*Command (terminated by signal|exited with non-zero status) (\d{1,3})\s*$`)
)

const gnuTimeKillWhy = "GNU time's report that the command it timed was terminated by signal 9, SIGKILL, which the kernel's OOM killer, a memory cgroup's, a batch scheduler's kill at the job's limit and any kill -9 all send; which one is not in this line (the kernel's own \"Out of memory: Killed process\" line would say)"

// gnuTime reads GNU time's report whose first line (or status line) is line i; it returns
// the lines it read.
func (d *doc) gnuTime(i int) int {
	t := d.ls[i].Text
	if !strings.Contains(t, "user ") && !strings.HasPrefix(strings.TrimSpace(t), "Command ") {
		return 0
	}
	var g GNUTime
	start := i
	if m := reGNUTimeStatus.FindStringSubmatch(t); m != nil {
		if i+1 >= len(d.ls) || !reGNUTimeUsage.MatchString(d.ls[i+1].Text) {
			return 0 // the status line alone: another program's words, or prose
		}
		n, _ := strconv.Atoi(m[2])
		if m[1] == "terminated by signal" {
			g.Signal = n
		} else {
			g.ExitStatus = n
		}
		i++
	}
	m := reGNUTimeUsage.FindStringSubmatch(d.ls[i].Text)
	if m == nil {
		return 0
	}
	last := i
	maxres := m[7]
	if maxres == "" {
		if i+1 >= len(d.ls) {
			return 0
		}
		mm := reGNUTimeMaxRes.FindStringSubmatch(d.ls[i+1].Text)
		if mm == nil {
			return 0
		}
		maxres = mm[1]
		last = i + 1
	}
	g.UserS, _ = strconv.ParseFloat(m[1], 64)
	g.SystemS, _ = strconv.ParseFloat(m[2], 64)
	g.Elapsed = m[3]
	g.CPUPct, _ = strconv.Atoi(m[4])
	g.AvgTextKB, _ = strconv.ParseInt(m[5], 10, 64)
	g.AvgDataKB, _ = strconv.ParseInt(m[6], 10, 64)
	g.MaxResidentKB, _ = strconv.ParseInt(maxres, 10, 64)
	if last+1 < len(d.ls) {
		if io := reGNUTimeIO.FindStringSubmatch(d.ls[last+1].Text); io != nil {
			g.Inputs, _ = strconv.ParseInt(io[1], 10, 64)
			g.Outputs, _ = strconv.ParseInt(io[2], 10, 64)
			g.MajorFaults, _ = strconv.ParseInt(io[3], 10, 64)
			g.MinorFaults, _ = strconv.ParseInt(io[4], 10, 64)
			g.Swaps, _ = strconv.ParseInt(io[5], 10, 64)
			last++
		}
	}
	for k := start; k <= last; k++ {
		d.used[k] = true
	}
	d.addArtifact(KindGNUTime, d.ls[start].No, d.ls[last].No, g)
	if g.Signal == 9 {
		d.used[start] = false
		d.batchSigkill(start, "GNU time (the command it timed terminated by signal 9, SIGKILL)", gnuTimeKillWhy)
	}
	return last - start + 1
}
