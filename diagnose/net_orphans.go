package diagnose

import (
	"fmt"
	"headroom/units"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// orphan-send-queues: a socket the application has closed keeps its send queue until the
// peer acknowledges it. In FIN_WAIT1 (and CLOSING, LAST_ACK) our FIN sits behind that data.
// When the peer stops reading it advertises a zero window; we keep probing it
// (tcp_probe_timer, net/ipv4/tcp_timer.c), and every probe the live peer answers resets the
// unanswered-probe count (icsk_probes_out = 0 in tcp_ack, net/ipv4/tcp_input.c). So:
//   - tcp_fin_timeout does not apply: it times FIN_WAIT2 orphans, whose FIN was already
//     acknowledged (tcp_close and tcp_rcv_state_process arm it on reaching FIN_WAIT2);
//   - tcp_orphan_retries (0 means 8 while the RTO is below its cap) counts probes that get
//     no answer; a zero-window peer answers every one. Before 3.18 such an orphan lived
//     "until armageddon" (the 2.6 comment in tcp_probe_timer) or until the orphan/memory
//     limits killed it; seed 004 (2.6.13) saw FIN_WAIT1 sockets with full send queues for days.
//     3.18 (commit b248230c3497, "tcp: abort orphan sockets stalling on zero window probes")
//     aborts an orphan once its probe backoff has reached the RTO cap and tcp_orphan_retries
//     probes; with tcp_retries2 ≤ 8 the backoff is capped below that and the abort never
//     happens (reported on netdev in August 2025, "tcp: Fix orphaned socket stalling
//     indefinitely in FIN-WAIT-1").
//
// What does bound them: tcp_max_orphans (tcp_out_of_resources → tcp_too_many_orphans resets
// an orphan at its next timer when orphans << shift exceed it; shift grows for peers that
// keep the window shut or sent ICMP errors, so the effective limit is ½ or ¼ of the sysctl),
// tcp_mem (tcp_check_oom, net/ipv4/tcp.c, "out of memory -- consider tuning tcp_mem"),
// net.ipv4.tcp_rto_max_ms on 6.15+ (a per-network-namespace default copied into each socket
// at creation: it must be set in the sender's namespace before the sockets are created; a
// lower cap makes an orphan "not alive" sooner), and the application: TCP_USER_TIMEOUT bounds
// probing, SO_LINGER {on, 0} makes close() send RST and free the queue at once, and
// tcp_notsent_lowat (3.12+) keeps unsent data, and so the hoard, small.
func init() {
	Register(Rule{
		ID:     "orphan-send-queues",
		Title:  "closed sockets (FIN_WAIT1, orphans) holding send queues",
		Family: FamilyNetwork,
		Check:  checkOrphanSendQueues,
	})
}

// Thresholds. A closing socket with a send queue of at least orphanHoardBytes (the default
// tcp_wmem[1] is 16 KiB; 64 KiB is more than an initial window and less than seed 004's
// 261 to 390 KB) is a hoard; orphanHoardMin of them in one table, or orphanHoardTotalBytes
// in total, is a warning: one or two are ordinary closes caught in flight.
const (
	orphanHoardBytes      = 64 << 10
	orphanHoardMin        = 4
	orphanHoardTotalBytes = 4 << 20
	// orphanCountNotable closing sockets in a count per state are worth telling without
	// their queues: at tcp_wmem's default maximum (4 MiB) a thousand could pin GiBs.
	orphanCountNotable = 1000
)

// Shares of tcp_max_orphans (netdata's tcp_orphans alarm: warning above 25%, critical above
// 50%, because the kernel penalizes orphans by 2× or 4×).
const (
	orphansWarnShare = 0.25
	orphansCritShare = 0.5
)

var closingStates = map[string]bool{"FIN_WAIT1": true, "CLOSING": true, "LAST_ACK": true}

func checkOrphanSendQueues(tl *model.Timeline) Result {
	var ev []Evidence
	sev := Severity(-1)
	haveData := false

	// Socket tables: the table with the largest hoard.
	type hoard struct {
		n, closing, orphans int
		total, largest      int64
		src                 string
	}
	var best hoard
	// What each part read, so a healthy result names only what was checked (a sockstat orphan
	// count says nothing about send queues; a count without tcp_max_orphans is not judged).
	var readQueues, readLimit bool
	orphanCount := int64(-1)
	tables := netSocketTables(tl)
	for _, t := range tables {
		haveData, readQueues = true, true
		var h hoard
		h.src = t.Source
		for _, r := range t.Rows {
			if !closingStates[netState(r.State)] {
				continue
			}
			h.closing++
			if r.SendQ >= orphanHoardBytes {
				h.n++
				h.total += r.SendQ
				h.largest = max(h.largest, r.SendQ)
				if r.Inode == 0 && r.Info != nil {
					h.orphans++ // a live dump: no inode means no file, the application closed it
				}
			}
		}
		if h.total > best.total {
			best = h
		}
	}
	if best.n > 0 {
		v := fmt.Sprintf("%d of %d closing sockets hold ≥ %s each; largest %d bytes; %s in total", best.n, best.closing, units.FormatBytes(orphanHoardBytes), best.largest, units.FormatBytes(best.total))
		if best.orphans > 0 {
			v += fmt.Sprintf("; %d of them orphaned (no inode)", best.orphans)
		}
		ev = append(ev, Evidence{What: "FIN_WAIT1/CLOSING/LAST_ACK sockets with send queues", Value: v, Source: best.src})
		if best.n >= orphanHoardMin || best.total >= orphanHoardTotalBytes {
			sev = max(sev, Warning)
		} else {
			sev = max(sev, Info)
		}
	}
	// Live summaries count every socket of the dump, not only the top rows.
	// (Only when the dump has more sockets than the rows listed: a pasted table's summary is
	// the same rows again.)
	if s := tl.LastWith(func(s *model.Sample) bool {
		return s.Sockets != nil && len(s.Sockets.ByState) > 0 && s.Sockets.Total > int64(len(s.SocketList)) && !s.Sockets.CountsOnly
	}); s != nil {
		haveData, readQueues = true, true
		var n, q int64
		for st, t := range s.Sockets.ByState {
			if closingStates[netState(st)] {
				n += t.Count
				q += t.SendQ
			}
		}
		if n > 0 && q > 0 {
			ev = append(ev, Evidence{What: "closing sockets in the dump (all states FIN_WAIT1, CLOSING, LAST_ACK)", Value: fmt.Sprintf("%d sockets, %s of send queue", n, units.FormatBytes(q)), Source: sampleSource(s, "sock_diag dump")})
			if q >= orphanHoardTotalBytes {
				sev = max(sev, Warning)
			}
		}
	}

	// A count per state (ss -s, netstat | awk) says how many sockets are closing, not what
	// they hold: many of them are told (info), their queues stay unread.
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Sockets != nil && s.Sockets.CountsOnly }); s != nil && !readQueues {
		var n int64
		for st, t := range s.Sockets.ByState {
			if closingStates[netState(st)] {
				n += t.Count
			}
		}
		if n >= orphanCountNotable {
			haveData = true
			sev = max(sev, Info)
			ev = append(ev, Evidence{What: "closing sockets counted per state (FIN_WAIT1, CLOSING, LAST_ACK)", Value: fmt.Sprintf("%d of %d; their send queues are not in the input (ss -tn state fin-wait-1 shows them)", n, s.Sockets.Total), Source: sampleSource(s, "a count per state")})
		}
	}

	// Orphan count against tcp_max_orphans.
	if s := tl.LastWith(func(s *model.Sample) bool { _, ok := s.SockStat.Get("TCP", "orphan"); return ok }); s != nil {
		orphans, _ := s.SockStat.Get("TCP", "orphan")
		orphanCount = orphans
		if lim := settingValues(tl, "net.ipv4.tcp_max_orphans"); len(lim) > 0 && lim[0].Host {
			if maxO, err := strconv.ParseInt(strings.TrimSpace(lim[0].Value), 10, 64); err == nil && maxO > 0 {
				haveData, readLimit = true, true
				share := float64(orphans) / float64(maxO)
				if orphans > 0 {
					ev = append(ev, Evidence{What: "orphaned TCP sockets / tcp_max_orphans", Value: fmt.Sprintf("%d / %d = %s", orphans, maxO, netPct(share)), Source: sampleSource(s, "/proc/net/sockstat") + ", " + lim[0].Source})
				}
				switch {
				case share > orphansCritShare:
					sev = max(sev, Critical)
				case share > orphansWarnShare:
					sev = max(sev, Warning)
				}
			}
		}
	}
	// What is measured now (socket tables, the orphan count): only this may change the host.
	// A log line says the limit was hit at some point; lowering tcp_max_orphans on its word
	// alone would reset closing connections of a busy server (issue 18: 131072 → 753).
	measured := sev
	if recs := logMatches(tl, kernel.MsgTooManyOrphans...); len(recs) > 0 {
		haveData = true
		sev = max(sev, Critical)
		ev = append(ev, logEvidence("kernel log: orphans reset at the limit", recs))
	}
	if recs, cause, why := outOfSocketMemory(tl); cause == socketLimitOrphans {
		haveData = true
		sev = max(sev, Critical)
		ev = append(ev, logEvidence("kernel log: \"Out of socket memory\" at the orphan limit ("+why+")", recs))
	}
	if !haveData && tl.Log.Len() == 0 && tl.LogElsewhere == 0 {
		if orphanCount >= 0 {
			return NotChecked("orphan count %d (/proc/net/sockstat) but no net.ipv4.tcp_max_orphans to compare it with, no socket table (ss, netstat -tn, sock_diag) for send queues, no kernel log", orphanCount)
		}
		return NotChecked("no socket table (ss, netstat -tn, sock_diag), /proc/net/sockstat orphan count, or kernel log")
	}
	if sev < 0 {
		return Healthy("%s", orphanHealthyText(readQueues, readLimit, orphanCount, tl.Log.Len()))
	}
	ev = append(ev, netTripletEvidence("tcp_wmem (each closed socket may keep up to its max)", netTriplets(tl, "net.ipv4.tcp_wmem"))...)
	kver, kOK := tl.Host.KernelVersion()
	if kOK {
		note := "3.18+: orphans probing a zero window are aborted once the probe backoff reaches the RTO cap and tcp_orphan_retries"
		if !kver.AtLeast(3, 18, 0) {
			note = "before 3.18: an orphan probing a zero window that the peer keeps answering is never aborted by retries; only tcp_max_orphans and tcp_mem end it"
		}
		ev = append(ev, Evidence{What: "kernel " + tl.Host.Kernel, Value: note, Source: "net/ipv4/tcp_timer.c tcp_probe_timer"})
	}
	f := Finding{
		Severity: sev,
		Title:    "closed connections keep their send queues (FIN_WAIT1 behind a peer that does not read)",
		Evidence: ev,
		Explanation: "After close() the kernel still owes the peer the unsent and unacknowledged data; the FIN " +
			"waits behind it. A peer that stops reading advertises a zero window and answers every window " +
			"probe, so the socket, now owned by no process, keeps its send queue (up to tcp_wmem[2]) for as " +
			"long as the peer stays alive (Fermilab: hundreds of KB each, for days). tcp_fin_timeout does not " +
			"help (it times FIN_WAIT2, after the FIN was acknowledged), nor does tcp_orphan_retries (it counts " +
			"unanswered probes, and these are answered). What bounds them: tcp_max_orphans (excess orphans are " +
			"reset; the kernel counts misbehaving ones 2× or 4×), tcp_mem (resets under memory shortage), " +
			"tcp_rto_max_ms on 6.15+ (set in the sender's network namespace before the sockets are created), " +
			"and the application: TCP_USER_TIMEOUT, or SO_LINGER {on, 0} to reset instead of lingering, and a " +
			"small tcp_notsent_lowat so little unsent data is queued at close.",
	}
	if best.n > 0 {
		f.Facts.HeldBytes = best.total
	}
	if measured >= Warning {
		f.Changes = orphanChanges(tl)
	}
	return Fired(f)
}

// orphanHealthyText names the checks that were made and the ones that were not, so a
// healthy result never rests on a table or limit that was not in the input.
func orphanHealthyText(queues, limit bool, orphans int64, logLines int) string {
	var done, not []string
	if queues {
		done = append(done, fmt.Sprintf("no closing socket holds ≥ %s of send queue", units.FormatBytes(orphanHoardBytes)))
	} else {
		not = append(not, "no socket table (ss, netstat -tn, sock_diag) to check send queues")
	}
	switch {
	case limit:
		done = append(done, fmt.Sprintf("orphans below %s of tcp_max_orphans", netPct(orphansWarnShare)))
	case orphans >= 0:
		not = append(not, fmt.Sprintf("orphan count %d not judged (no net.ipv4.tcp_max_orphans)", orphans))
	default:
		not = append(not, "no /proc/net/sockstat orphan count")
	}
	if logLines > 0 {
		done = append(done, fmt.Sprintf("no \"too many orphaned sockets\" in %d log lines", logLines))
	} else {
		not = append(not, "no kernel log")
	}
	out := strings.Join(done, ", ")
	if len(not) > 0 {
		out += "; not checked: " + strings.Join(not, "; ")
	}
	return out
}

// orphanChanges caps tcp_max_orphans so orphans alone cannot pin more than plan's socket-
// buffer budget (each may keep up to tcp_wmem[2]), and restores tcp_retries2 when it is low
// enough to disable the 3.18+ zero-window abort.
func orphanChanges(tl *model.Timeline) []model.Change {
	var out []model.Change
	wm, okW := netHostOrMax(netTriplets(tl, "net.ipv4.tcp_wmem"))
	p, _, okP := netBudgetPlan(tl)
	if okW && okP && wm.V[2] > 0 {
		limit := p.Budget.BudgetBytes / wm.V[2]
		cur := ""
		if vs := settingValues(tl, "net.ipv4.tcp_max_orphans"); len(vs) > 0 {
			cur = strings.TrimSpace(vs[0].Value)
		}
		if c, err := strconv.ParseInt(cur, 10, 64); cur == "" || (err == nil && c > limit) {
			out = append(out, model.Change{
				Kind: model.ChangeSysctl, Key: "net.ipv4.tcp_max_orphans", Current: cur,
				Recommended: strconv.FormatInt(max(limit, 128), 10),
				Why: fmt.Sprintf("orphans × tcp_wmem max (%s) within plan's socket-buffer budget %s (1/%d of %s); excess orphans are reset at their next timer",
					units.FormatBytes(wm.V[2]), units.FormatBytes(p.Budget.BudgetBytes), p.Budget.ShareDenominator, p.Budget.Basis),
			})
		}
	}
	if kver, ok := tl.Host.KernelVersion(); ok && kver.AtLeast(3, 18, 0) {
		if v, src, ok := tl.Sysctl("net.ipv4.tcp_retries2"); ok {
			if r, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && r <= 8 {
				out = append(out, model.Change{
					Kind: model.ChangeSysctl, Key: "net.ipv4.tcp_retries2", Current: v, Recommended: "15",
					Why: fmt.Sprintf("tcp_retries2 %d (%s) caps the probe backoff below the point where an orphan stalled on a zero window is aborted (tcp_send_probe0/tcp_probe_timer); 15 is the default", r, src),
				})
			}
		}
	}
	return out
}
