package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// A monitoring agent's alarm on a kernel counter's growth, raised on this host (round 8,
// fix13a). unreadagent.go lists an agent's values as unread because a value is a rate or a
// share over the agent's window, not the counter a rule compares. An alarm that fired on a
// counter's growth is still evidence: it says the counter grew in that window. Netdata's
// stock alarms of this domain (health.d, checked in netdata's source):
//
//   - tcp_listen.conf: 1m_tcp_accept_queue_drops and 1m_tcp_accept_queue_overflows on
//     ip.tcp_accept_queue, "lookup: average -60s unaligned absolute of ListenDrops"
//     (ListenOverflows), units drops, warn $this > 1; before the rename the same alarms were
//     1m_ipv4_tcp_listen_drops and 1m_ipv4_tcp_listen_overflows on ipv4.tcplistenissues
//     (netdata PR #3976, 2018). The chart is incremental, so the value is the counter's
//     growth per second averaged over the minute.
//   - softnet.conf: 1hour_netdev_backlog_exceeded on system.softnet_stat, "lookup: sum -1h
//     unaligned absolute of dropped", warn $this > 0 (2016): the packets dropped at a full
//     netdev_max_backlog in the last hour; later 10min_ and 1min_ names average the per-second
//     growth over their window.
//
// Read as a stated rate of the counter (model.RateStatedListenAlarmSec,
// RateStatedSoftnetDropAlarmSec and their *PerSec twins): the finding rests on a statement,
// so the registry keeps it below critical. An alarm whose value is 0, or one that cleared or
// recovered, is no growth; an alarm named in a configuration or as a possibility is none.

// counterAlarm is one family of alarm names and the rate keys it states.
type counterAlarm struct {
	windowKey, rateKey string
}

var (
	listenAlarm  = counterAlarm{model.RateStatedListenAlarmSec, model.RateStatedListenDropsPerSec}
	softnetAlarm = counterAlarm{model.RateStatedSoftnetDropAlarmSec, model.RateStatedSoftnetDroppedPerSec}
	// fix57a: tcp_listen.conf's 1m_tcp_syn_queue_cookies and 1m_tcp_syn_queue_drops on
	// ip.tcp_syn_queue, "lookup: average -60s unaligned absolute of TCPReqQFullDoCookies"
	// (TCPReqQFullDrop): SYNs that met a listener's full SYN queue, per second over the
	// minute ("sum -60s", the minute's count, before netdata PR #7250, 2019): a notification
	// quotes it as "ip.tcp_syn_queue (tcp), 1m tcp syn queue cookies = 2 cookies".
	synQueueAlarm = counterAlarm{model.RateStatedSynQueueAlarmSec, model.RateStatedSynQueuePerSec}
)

var (
	// The alarm by its id or its summary (the id with spaces, as alarm-notify.sh's e-mail
	// prints it): a window prefix ("1m", "1hour", "10min"), then the name; the value after
	// " = " when the notification quotes it.
	reNetdataCounterAlarm = lazyre.New(`(?i)\b(\d+)\s?(s|sec|m|min|h|hour)[ _](?:ipv4[ _])?(tcp[ _]listen[ _](?:drops|overflows)|tcp[ _]accept[ _]queue[ _](?:drops|overflows)|tcp[ _]syn[ _]queue[ _](?:drops|cookies)|netdev[ _]backlog[ _]exceeded)\b(?:` + "[`'\"]?" + `\s{0,3}=\s*(\d+(?:\.\d+)?)\b)?`)
	// An alarm on the chart that holds only those counters ("netdata alarms
	// (ipv4.tcplistenissues)", "alerts on ip.tcp_accept_queue"). The chart is in packets/s,
	// and netdata's proc.plugin (proc_net_netstat.c, do_tcpext_listen "auto") creates it only
	// once ListenOverflows or ListenDrops is non-zero.
	reNetdataListenChartAlarm = lazyre.New(`(?i)\b(?:alarms?|alerts?)\b[^;!?\n]{0,60}?\b(?:ipv4\.tcplistenissues|ip\.tcp_accept_queue)\b|\b(?:ipv4\.tcplistenissues|ip\.tcp_accept_queue)\b[^;!?\n]{0,30}?\b(?:alarms?|alerts?)\b`)
	// The words of an alarm that fired (alarm-notify.sh's status words, and the prose of it);
	// the upper-case status only as Netdata prints it ("is now warning for up to 60 packets"
	// is a threshold).
	reAlarmFired   = lazyre.New(`(?i)\b(?:fir(?:e|es|ed|ing)|trigger(?:s|ed|ing)?|raised|went\s+off|go(?:es)?\s+off|is\s+critical|needs\s+attention)\b`)
	reAlarmStatus  = lazyre.New(`\b(?:WARNING|CRITICAL|RAISED)\b`)
	reAlarmCleared = lazyre.New(`(?i)\b(?:clear(?:ed)?|recovered|back\s+to\s+normal)\b`)
	// counterAlarmWord: a word every match of the two regexps holds, lower-case letters only
	// (containsFoldASCII folds letters alone: no '_').
	counterAlarmWord = []string{"listen", "accept", "netdev", "syn"}
)

// statedAlarm is one alarm the text says fired, with the keys it states.
type statedAlarm struct {
	alarm    counterAlarm
	window   float64 // seconds, 0 when not said
	perSec   float64 // the counter's growth per second, 0 when the value is not quoted
	pos, end int     // the match in the paragraph
}

// counterAlarmsIn finds the alarms para says fired.
func counterAlarmsIn(para string) []statedAlarm {
	var out []statedAlarm
	for _, m := range reNetdataCounterAlarm.FindAllStringSubmatchIndex(para, -1) {
		n, _ := strconv.ParseFloat(para[m[2]:m[3]], 64)
		unit := strings.ToLower(para[m[4]:m[5]])
		window := n
		switch unit[0] {
		case 'm':
			window = n * 60
		case 'h':
			window = n * 3600
		}
		name := strings.ToLower(para[m[6]:m[7]])
		a := statedAlarm{alarm: listenAlarm, window: window, pos: m[0], end: m[1]}
		if strings.HasPrefix(name, "netdev") {
			a.alarm = softnetAlarm
		} else if strings.Contains(name, "syn") {
			a.alarm = synQueueAlarm
		}
		sentence := sentenceAround(para, m[0], m[1])
		if m[8] >= 0 {
			v, err := strconv.ParseFloat(para[m[8]:m[9]], 64)
			if err != nil || v <= 0 || reAlarmCleared.MatchString(sentence) {
				continue // the alarm's value 0, or a clear notification: no growth
			}
			a.perSec = v
			if unit[0] == 'h' && window > 0 {
				a.perSec = v / window // 1hour_netdev_backlog_exceeded sums the hour's drops
			}
			out = append(out, a)
			continue
		}
		if !alarmFiredIn(sentence, para[m[0]:m[1]]) {
			continue
		}
		out = append(out, a)
	}
	for _, m := range reNetdataListenChartAlarm.FindAllStringIndex(para, -1) {
		sentence := sentenceAround(para, m[0], m[1])
		if notStatedAlarm(sentence, para[m[0]:m[1]]) {
			continue
		}
		out = append(out, statedAlarm{alarm: listenAlarm, pos: m[0], end: m[1]})
	}
	return out
}

// alarmFiredIn: the sentence says the alarm named in match fired, as a fact.
func alarmFiredIn(sentence, match string) bool {
	if !reAlarmFired.MatchString(sentence) && !reAlarmStatus.MatchString(sentence) {
		return false
	}
	return !notStatedAlarm(sentence, match)
}

// notStatedAlarm: a cleared alarm, a negation, a possibility, a general statement or a
// health configuration's threshold line.
func notStatedAlarm(sentence, match string) bool {
	return reAlarmCleared.MatchString(sentence) || reNotBusy.MatchString(sentence) ||
		hypotheticalUpTo(sentence, match) || genericStatement(sentence, match) ||
		reNetdataHealthDef.MatchString(sentence)
}

// counterAlarmLine: an agent's line (agentMetricLine took it) that states such an alarm
// fired, kept as prose so stated reads it rather than listed as unread.
func counterAlarmLine(t string) bool {
	if !hasAnyFold(t, counterAlarmWord) {
		return false
	}
	return len(counterAlarmsIn(t)) > 0
}

func hasAnyFold(t string, words []string) bool {
	for _, w := range words {
		if containsFoldASCII(t, w) {
			return true
		}
	}
	return false
}
