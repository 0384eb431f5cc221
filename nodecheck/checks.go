package nodecheck

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// checkTCPPressure: the kernel's own flag first. tcp_enter_memory_pressure sets
// tcp_memory_pressure when sk_memory_allocated crosses tcp_mem[1], and
// sk_leave_memory_pressure clears it only once the total falls below tcp_mem[0]
// (net/ipv4/tcp.c, net/core/sock.c); /proc/net/protocols prints it as "yes"/"no" in the TCP
// row (sock.c proto_seq_printf). Kernels or roots without that file fall back to the
// same comparison the kernel makes, sockstat's "mem" against tcp_mem[1].
func checkTCPPressure(_ context.Context, env Env, _ Options) Result {
	used, haveUsed := int64(0), false
	if ss, err := kernel.ReadSockStat(env.Root); err == nil {
		used, haveUsed = ss.Get("TCP", "mem")
	}
	limits, limErr := tcpMem(env.Root)
	figures := ""
	if haveUsed && limErr == nil {
		figures = fmt.Sprintf(": %d pages, tcp_mem pressure %d max %d", used, limits[1], limits[2])
	}
	if protos, err := kernel.ReadProtocols(env.Root); err == nil {
		for _, p := range protos {
			if p.Name != "TCP" || (p.Pressure != "yes" && p.Pressure != "no") {
				continue
			}
			if p.Pressure == "yes" {
				return Result{Problem, "TCP in memory pressure" + figures}
			}
			return Result{OK, "TCP not in memory pressure" + figures}
		}
	}
	switch {
	case !haveUsed:
		return Result{Unknown, "no TCP pressure flag and no TCP mem in /proc/net/sockstat"}
	case limErr != nil:
		return unknown(limErr)
	case used >= limits[1]:
		return Result{Problem, "TCP memory at or above tcp_mem pressure" + figures}
	}
	return Result{OK, "TCP memory below tcp_mem pressure" + figures}
}

// tcpMem reads net.ipv4.tcp_mem: min, pressure, max in pages.
func tcpMem(root kernel.Root) ([3]int64, error) {
	var out [3]int64
	v, err := kernel.ReadSysctl(root, "net.ipv4.tcp_mem")
	if err != nil {
		return out, err
	}
	f := strings.Fields(v)
	if len(f) != 3 {
		return out, fmt.Errorf("net.ipv4.tcp_mem: %q is not three numbers", v)
	}
	for i, s := range f {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return out, fmt.Errorf("net.ipv4.tcp_mem: %q is not three numbers", v)
		}
		out[i] = n
	}
	return out, nil
}

// checkReserve: a populated zone in the lower half of its min..low band or below min is a
// problem; the message names the zone with the least of its band left. The judgement is
// model.JudgeReserve, the one doctor's zone-reserve-low rule makes on the same files.
func checkReserve(_ context.Context, env Env, _ Options) Result {
	zones, err := kernel.ReadZoneInfo(env.Root)
	if err != nil {
		return unknown(err)
	}
	views := make([]model.ZoneWatermarks, 0, len(zones))
	for _, z := range zones {
		views = append(views, model.ZoneView(z, nil))
	}
	r := model.JudgeReserve(views)
	if r.Checked == 0 {
		return Result{Unknown, "no populated zone with free pages and watermarks in /proc/zoneinfo"}
	}
	worst := r.Zone
	where := fmt.Sprintf("node %d %s free %d pages, min %d low %d", worst.Node, worst.Zone, worst.Free, worst.Min, worst.Low)
	switch r.Level {
	case model.ReserveBelowMin:
		return Result{Problem, "below min: " + where}
	case model.ReserveNearMin:
		return Result{Problem, "near min: " + where}
	}
	return Result{OK, "reserve ok: " + where}
}

// checkSoftnet: column 2 of /proc/net/softnet_stat counts packets enqueue_to_backlog
// dropped because the CPU's input queue held netdev_max_backlog packets (net/core/dev.c).
// It is a counter since boot, so a present state needs two readings; the 32-bit columns
// wrap, which model.SoftnetDeltas tells apart from a reset.
func checkSoftnet(ctx context.Context, env Env, o Options) Result {
	first, err := kernel.ReadSoftnet(env.Root)
	if err != nil {
		return unknown(err)
	}
	if err := env.Sleep(ctx, o.Interval); err != nil {
		return Result{Unknown, "interrupted between the two softnet readings"}
	}
	second, err := kernel.ReadSoftnet(env.Root)
	if err != nil {
		return unknown(err)
	}
	per := model.SoftnetDeltas(first, second)
	if len(per) == 0 {
		return Result{Unknown, "no CPU in both softnet readings"}
	}
	var cpus []string
	for _, d := range per {
		if d.Reset {
			return Result{Unknown, fmt.Sprintf("softnet counters of CPU %d went back between readings", d.CPU)}
		}
		if d.Dropped > 0 {
			cpus = append(cpus, strconv.Itoa(d.CPU))
		}
	}
	t := model.SoftnetTotals(per)
	if t.Dropped == 0 {
		return Result{OK, fmt.Sprintf("no backlog drops in %s (%d packets processed)", short(o.Interval), t.Processed)}
	}
	return Result{Problem, fmt.Sprintf("%d packets dropped at the input backlog in %s, CPU %s", t.Dropped, short(o.Interval), strings.Join(cpus, ","))}
}

// LogMessage is a kernel-log message of this family: the NPD kernel-monitor rule that
// turns each record into an event, and the `headroom check` mode that holds a condition
// while at least N of them were logged in the last M minutes (NPD's log monitor matches one
// buffer of lines and has no time window; its permanent conditions never clear).
type LogMessage struct {
	Name      string
	Condition string
	Reason    string // as Check.Reason
	OKReason  string
	OKMessage string
	Texts     []string // kernel/messages.go: any one of them marks a record
}

// LogMessages lists the messages, with their texts from kernel/messages.go.
func LogMessages() []LogMessage {
	return []LogMessage{
		{Name: "page-allocation-failure", Condition: "PageAllocationFailures", Reason: "alloc-fail",
			OKReason: "NoPageAllocationFailures", OKMessage: "no page allocation failures in the window",
			Texts: kernel.MsgPageAllocFailure},
		{Name: "tcp-out-of-memory", Condition: "TCPOutOfMemory", Reason: "tcp-memory-pressure",
			OKReason: "TCPNotOutOfMemory", OKMessage: "no TCP out of memory messages in the window",
			Texts: append(append([]string(nil), kernel.MsgTCPOutOfMemory...), kernel.MsgOutOfSocketMemory...)},
		{Name: "too-many-orphans", Condition: "TCPTooManyOrphans", Reason: "orphan-send-queues",
			OKReason: "TCPOrphansWithinLimit", OKMessage: "no too many orphaned sockets messages in the window",
			Texts: kernel.MsgTooManyOrphans},
		{Name: "conntrack-full", Condition: "ConntrackTableFull", Reason: "conntrack-full",
			OKReason: "ConntrackTableNotFull", OKMessage: "no conntrack table full messages in the window",
			Texts: kernel.MsgConntrackFull},
	}
}

// Matches reports whether a kernel-log message holds one of m's texts.
func (m LogMessage) Matches(msg string) bool {
	for _, t := range m.Texts {
		if strings.Contains(msg, t) {
			return true
		}
	}
	return false
}

// checkLog counts m's records stamped within the last o.Within. A record's stamp is
// printk's local_clock at logging time (kernel/printk/printk.c), the same clock as
// env.SinceBoot; a captured root's "now" is the time it was captured (headroom/host.json's
// captured_at less proc/stat's btime), as doctor dates it, else its newest record.
func checkLog(env Env, o Options, m LogMessage) Result {
	if o.Matches < 1 || o.Within <= 0 {
		return Result{Unknown, "--matches must be at least 1 and --within above 0"}
	}
	recs, err := kernel.ReadKmsg(env.Root)
	if err != nil {
		return unknown(err)
	}
	var now time.Duration
	if env.Root.IsLive() {
		if now, err = env.SinceBoot(); err != nil {
			return unknown(err)
		}
	} else if at, ok := capturedSinceBoot(env.Root); ok {
		now = at
	} else {
		for _, r := range recs {
			now = max(now, time.Duration(r.TimestampUsec)*time.Microsecond)
		}
	}
	from := now - o.Within
	n, last := 0, time.Duration(-1)
	for _, r := range recs {
		at := time.Duration(r.TimestampUsec) * time.Microsecond
		if at < from || !m.Matches(r.Message) {
			continue
		}
		n++
		last = max(last, at)
	}
	what := fmt.Sprintf("%q", m.Texts[0])
	if n < o.Matches {
		return Result{OK, fmt.Sprintf("%d of %d %s in %s", n, o.Matches, what, short(o.Within))}
	}
	return Result{Problem, fmt.Sprintf("%d %s in %s, last %s ago", n, what, short(o.Within), (now - last).Round(time.Second))}
}

// short prints a duration without its zero tails: 10m, 1h30m, 2s.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// capturedSinceBoot is when a capture was taken, as time since boot: headroom/host.json's
// captured_at (written by headroom capture) less the boot time of its proc/stat.
func capturedSinceBoot(root kernel.Root) (time.Duration, bool) {
	b, err := root.ReadFile("headroom/host.json")
	if err != nil {
		return 0, false
	}
	var h struct {
		CapturedAt time.Time `json:"captured_at"`
	}
	if json.Unmarshal(b, &h) != nil || h.CapturedAt.IsZero() {
		return 0, false
	}
	st, err := root.ReadFile("proc/stat")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(st), "\n") {
		if v, ok := strings.CutPrefix(l, "btime "); ok {
			bt, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || h.CapturedAt.Unix() < bt {
				return 0, false
			}
			return h.CapturedAt.Sub(time.Unix(bt, 0)), true
		}
	}
	return 0, false
}
