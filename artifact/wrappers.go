package artifact

import (
	"encoding/json"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// stripLogWrappers unwraps a kernel record from the containers other tools put it in, so the
// prefixes stripOtherPrefixes, stripSyslog and stripKernelStamp know are in front (issue 29):
//
//	"kern  :warn  : [12345.678901] ..."                      dmesg -x (facility and level)
//	"2026-11-29T09:12:01.123456789Z stdout F [12345.6] ..."   a container's log in the CRI
//	                                                          format (kubectl logs of a
//	                                                          dmesg-reading pod, /var/log/pods)
//	{"log":"[12345.678901] ...\n","stream":"stdout","time":"..."}  docker's json-file driver
//	{"MESSAGE":"...","_TRANSPORT":"kernel",...}               journalctl -o json
//	"<4>1 2026-11-29T09:12:01.123456+00:00 host kernel - - - ..."  RFC 5424 (rsyslog,
//	                                                          syslog-ng)
//	"[12345.678901] host kernel: ..."                         journalctl -o short-monotonic
//	"[pod/npd-x2b/npd] ..."                                   kubectl logs --prefix
//	"[cron0] Apr 13 14:49:06 host kernel: ..."                a collector's source tag
//	"<4>Nov 29 09:12:01 web1 kernel: ..."                     RFC 3164 with its priority
//	"1700000000.123456 web1 kernel: ..."                      journalctl -o short-unix
//	"Nov 29 09:12:01 router kern.warn kernel: ..."            BusyBox syslogd
//	"web1 kernel: ..."                                        syslog with its date cut off
//	"12:03 <nick> ...", "[12:03] <nick> ..."                  an IRC or chat client's log
//	"netmon-1  | ..."                                         docker compose logs
//	"npd-x2b9k npd ..."                                       stern (pod, container)
//	"s1:  [  4]   0.00-1.00   sec ..."                        iperf3 --title's prefix
//	"2021-03-23T09:39:07.5366581Z ..."                        a CI runner's raw log (GitHub
//	                                                          Actions, Azure Pipelines)
//	"1 Time(s): ...", "   ...:  2 Time(s)"                    a logwatch summary's count
//
// Each form is ruled out by its first bytes: it runs on every line.
func stripLogWrappers(s string, l *Line) string {
	if len(s) < 8 {
		return s
	}
	if t, ok := stripLogwatchCount(s); ok {
		return stripLogWrappers(t, l) // a logwatch summary's count (fix57c_logwatch.go)
	}
	switch c := s[0]; {
	case c == '{':
		if t, ok := unwrapJSONRecord(s, l); ok {
			return t
		}
	case c == '<':
		if t, ok := stripRFC5424(s, l); ok {
			return t
		}
		if t, ok := stripPriBSD(s, l); ok {
			return t
		}
	case c == '[':
		if s[3] == ':' {
			if t, ok := stripChatStamp(s[1:], true); ok {
				return stripLogWrappers(t, l)
			}
		}
		if strings.HasPrefix(s, "[pod/") {
			// kubectl logs --prefix: "[pod/NAME/CONTAINER] ".
			if e := strings.Index(s, "] "); e > 5 && !strings.ContainsAny(s[:e], " ") {
				s = s[e+2:]
				if len(s) < 8 {
					return s
				}
			}
		} else if t, ok := stripSourceTag(s); ok {
			s = t
		}
		if s[0] == '[' {
			return stripMonotonicHost(s, l)
		}
		return stripLogWrappers(s, l)
	case c >= '0' && c <= '9':
		if s[2] == ':' {
			if t, ok := stripChatStamp(s, false); ok {
				return stripLogWrappers(t, l)
			}
		}
		if t, ok := stripCRI(s); ok {
			return t
		}
		if t, ok := stripDmesgISO(s, l); ok {
			return t
		}
		if t, ok := stripRunnerStamp(s); ok {
			return stripLogWrappers(t, l) // a CI runner's raw log (runnerstamp.go)
		}
		if t, ok := stripUnixStamp(s, l); ok {
			return t
		}
		if t, ok := stripHostKernel(s, l); ok {
			return t
		}
		if t, ok := stripViewerRow(s, l); ok {
			return t // a log viewer's row, "DATE TIME | HOST | SERVICE | MESSAGE" (fix50d, unreadhpc.go)
		}
	case c >= 'A' && c <= 'Z' && s[3] == ' ' && isMonth(s[:3]):
		// A BSD syslog line, every line of a syslog: one substring test.
		if strings.Contains(s[:min(len(s), 64)], " kern.") {
			return dropFacilityLevel(s)
		}
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		if t, ok := stripIperfTitle(s); ok {
			return t
		}
		if t, ok := stripDmesgFacility(s, l); ok {
			if u, ok := stripDmesgISO(t, l); ok {
				return u // dmesg -x --time-format iso (fix36a)
			}
			return t
		}
		if t, ok := stripReceiverLabel(s, l); ok {
			return t
		}
		if t, ok := stripMultiplexer(s); ok {
			return stripLogWrappers(t, l)
		}
		if t, ok := stripHostKernel(s, l); ok {
			return t
		}
	}
	return s
}

// stripPriBSD removes the priority a syslog message carries on the wire before its BSD
// header ("<4>Nov 29 09:12:01 web1 kernel: ", RFC 3164 as captured or forwarded), so
// stripSyslog reads the header; the priority's level is the record's.
func stripPriBSD(s string, l *Line) (string, bool) {
	gt := strings.IndexByte(s[:min(len(s), 6)], '>')
	if gt < 2 || !isDigits(s[1:gt]) || len(s) < gt+20 || !isMonth(s[gt+1:gt+4]) || s[gt+4] != ' ' {
		return s, false
	}
	pri, _ := strconv.Atoi(s[1:gt])
	l.Priority = pri & 7
	return s[gt+1:], true
}

// stripReceiverLabel removes the label a syslog receiver prints before each datagram it
// received, the datagram as it travelled ("Received message  <4>Jun  8 11:15:43 LEDE
// kernel: [  379.197183] Normal free:1024kB ...": a router's kernel log sent by LEDE's logd or BusyBox
// syslogd -R to a small UDP listener on another machine, corpus 2150), so stripPriBSD reads
// the priority and the BSD header after it. The label is one or two words of letters before
// blanks; the datagram's priority is of the kern facility (0-7) and its tag, after the date
// and the host, is "kernel:". Another program's datagram behind the label ("<30>... dnsmasq[812]:
// ..."), a label of three words or more (a sentence: "the log says <4>Jun ..."), and a '<'
// that opens no priority stay as they are. Ruled out by one byte search in the first 40
// bytes: few lines hold a '<' there.
func stripReceiverLabel(s string, l *Line) (string, bool) {
	lt := strings.IndexByte(s[:min(len(s), 40)], '<')
	if lt < 4 || s[lt-1] != ' ' || len(s) < lt+24 {
		return s, false
	}
	words := strings.Fields(strings.TrimRight(s[:lt], " :"))
	if len(words) == 0 || len(words) > 2 {
		return s, false
	}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if w[i]|0x20 < 'a' || w[i]|0x20 > 'z' {
				return s, false
			}
		}
	}
	d := s[lt:]
	gt := strings.IndexByte(d[:min(len(d), 5)], '>')
	if gt != 2 || !isDigits(d[1:gt]) || d[1] > '7' {
		return s, false // one digit: the kern facility's eight levels
	}
	f := strings.Fields(d[gt+1 : min(len(d), gt+80)])
	if len(f) < 5 || !isMonth(f[0]) || !isDigits(f[1]) || strings.Count(f[2], ":") != 2 || f[4] != "kernel:" {
		return s, false
	}
	return stripPriBSD(d, l)
}

// stripUnixStamp removes journalctl -o short-unix's "1700000000.123456 host kernel: ": the
// seconds since the epoch, then a host and the tag.
func stripUnixStamp(s string, l *Line) (string, bool) {
	sp := strings.IndexByte(s[:min(len(s), 24)], ' ')
	if sp < 12 || s[10] != '.' || !isDigits(s[:10]) || !isDigits(s[11:sp]) {
		return s, false
	}
	return syslogHostTag(s[sp+1:], s[:sp], l)
}

// stripHostKernel removes "host kernel: " from a syslog line whose date was cut off (awk
// '{$1=$2=$3=""}', cut -f4-): a host name alone before the kernel's tag.
func stripHostKernel(s string, l *Line) (string, bool) {
	sp := strings.IndexByte(s[:min(len(s), 64)], ' ')
	if sp < 1 || !strings.HasPrefix(s[sp+1:], "kernel: ") || !hostName(s[:sp]) {
		return s, false
	}
	return syslogTag(s[sp+1:], "", s[:sp], l)
}

// hostName: letters, digits, '-', '.' and '_', with a letter or digit first and last ("e.g."
// is no host).
func hostName(h string) bool {
	if len(h) < 2 || h[len(h)-1] == '.' || h[len(h)-1] == '-' {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || i > 0 && (c == '-' || c == '.' || c == '_')) {
			return false
		}
	}
	return h != ""
}

// dropFacilityLevel removes the "facility.level" BusyBox syslogd writes between the host and
// the tag ("Nov 29 09:12:01 router kern.warn kernel: "), leaving the BSD header stripSyslog
// reads.
func dropFacilityLevel(s string) string {
	if len(s) < 20 {
		return s
	}
	f, n := firstFields4(s[:min(len(s), 48)])
	if n < 4 || strings.Count(f[2], ":") != 2 {
		return s
	}
	k := strings.Index(s, f[2]) + len(f[2])
	rest := strings.TrimLeft(s[k:], " ")
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 {
		return s
	}
	after := rest[sp+1:]
	sp2 := strings.IndexByte(after, ' ')
	if sp2 <= 0 {
		return s
	}
	fac, lvl, ok := strings.Cut(after[:sp2], ".")
	if !ok || !isDmesgFacility(fac) {
		return s
	}
	if _, ok := dmesgLevels[lvl]; !ok && lvl != "warning" && lvl != "error" {
		return s
	}
	return s[:len(s)-len(after)] + after[sp2+1:]
}

// dmesg -x levels (util-linux dmesg.c level_names), by priority.
var dmesgLevels = map[string]int{"emerg": 0, "alert": 1, "crit": 2, "err": 3, "warn": 4, "notice": 5, "info": 6, "debug": 7}

// stripDmesgFacility removes dmesg -x's "kern  :warn  : ": a facility, a level, each padded
// and closed by a colon. The level is the record's priority.
func stripDmesgFacility(s string, l *Line) (string, bool) {
	c1 := strings.IndexByte(s[:min(len(s), 12)], ':')
	if c1 < 3 {
		return s, false
	}
	fac := strings.TrimRight(s[:c1], " ")
	if !isDmesgFacility(fac) {
		return s, false
	}
	rest := s[c1+1:]
	c2 := strings.IndexByte(rest[:min(len(rest), 10)], ':')
	if c2 < 3 {
		return s, false
	}
	pri, ok := dmesgLevels[strings.TrimRight(rest[:c2], " ")]
	if !ok {
		return s, false
	}
	l.Priority = pri
	return strings.TrimPrefix(rest[c2+1:], " "), true
}

// stripDmesgISO removes dmesg --time-format iso's stamp, "2024-08-07T07:19:37,672782-04:00 "
// (util-linux dmesg.c, "%04d-%02d-%02dT%02d:%02d:%02d,%06ld%+03d:%02d"): the wall clock
// with a comma before six digits of microseconds and a numeric offset. Only dmesg writes the
// comma there (RFC 3339 and the CRI log have a '.'), so the record is the kernel's (fix36a).
func stripDmesgISO(s string, l *Line) (string, bool) {
	const n = len("2024-08-07T07:19:37,672782-04:00")
	if len(s) <= n+1 || s[n] != ' ' || s[19] != ',' || s[10] != 'T' || s[4] != '-' || s[7] != '-' || s[13] != ':' || s[16] != ':' || s[29] != ':' || s[26] != '+' && s[26] != '-' {
		return s, false
	}
	for _, p := range [...][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}, {20, 26}, {27, 29}, {30, 32}} {
		if !isDigits(s[p[0]:p[1]]) {
			return s, false
		}
	}
	l.Kernel = true
	l.Stamp = s[:n]
	return s[n+1:], true
}

func isDmesgFacility(f string) bool {
	switch f {
	case "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7":
		return true
	}
	return false
}

// stripCRI removes the CRI log format's "RFC3339Nano stream tag " (containerd and CRI-O
// write a container's output so; kubectl logs of a pod that prints the kernel log shows the
// lines without it, /var/log/pods with it).
func stripCRI(s string) (string, bool) {
	if len(s) < 32 || s[4] != '-' || s[10] != 'T' {
		return s, false
	}
	sp := strings.IndexByte(s, ' ')
	if sp < 20 || sp > 40 {
		return s, false
	}
	rest := s[sp+1:]
	for _, p := range []string{"stdout F ", "stderr F ", "stdout P ", "stderr P "} {
		if strings.HasPrefix(rest, p) {
			return rest[len(p):], true
		}
	}
	return s, false
}

// jsonRecord holds the fields of a docker json-file line and a journal export line that name
// the message and its times.
type jsonRecord struct {
	Log       *string `json:"log"`
	Message   any     `json:"MESSAGE"`
	Transport string  `json:"_TRANSPORT"`
	Ident     string  `json:"SYSLOG_IDENTIFIER"`
	Priority  string  `json:"PRIORITY"`
	Monotonic string  `json:"_SOURCE_MONOTONIC_TIMESTAMP"`
	Host      string  `json:"_HOSTNAME"`
}

// unwrapJSONRecord reads one JSON object per line: docker's json-file ({"log": ...}) and
// journalctl -o json ({"MESSAGE": ...}). A journal record of the kernel transport is a kernel
// record with its priority and its monotonic time (the uptime, in µs); a message journald
// stored as bytes (not UTF-8) is left alone.
func unwrapJSONRecord(s string, l *Line) (string, bool) {
	t := strings.TrimRight(s, " ,")
	if t[len(t)-1] != '}' || !(strings.Contains(t, `"log"`) || strings.Contains(t, `"MESSAGE"`)) {
		return s, false
	}
	var r jsonRecord
	if json.Unmarshal([]byte(t), &r) != nil {
		return s, false
	}
	if r.Log != nil {
		return strings.TrimRight(*r.Log, "\r\n"), true
	}
	msg, ok := r.Message.(string)
	if !ok {
		return s, false
	}
	if r.Transport == "kernel" || r.Ident == "kernel" {
		l.Kernel = true
		l.Syslog, l.Tag, l.Host = true, "kernel", r.Host
		if p, err := strconv.Atoi(r.Priority); err == nil && p >= 0 && p <= 7 {
			l.Priority = p
		}
		if us, err := strconv.ParseInt(r.Monotonic, 10, 64); err == nil && us >= 0 {
			l.UptimeUsec = us
		}
	} else if r.Ident != "" && r.Transport != "" && !strings.ContainsAny(r.Ident, " \t") {
		// Another program's record: its identifier is the tag the default output prints
		// ("host systemd[1]: MSG"), so its line reads as that output's does (h31d: systemd's
		// unit OOM lines through -o json).
		l.Syslog, l.Tag, l.Host = true, r.Ident, r.Host
	}
	return msg, true
}

// stripRFC5424 removes "<PRI>1 TIMESTAMP HOST APP PROCID MSGID SD " (RFC 5424 section 6):
// the structured data is "-" or bracketed elements. The application is the tag.
func stripRFC5424(s string, l *Line) (string, bool) {
	gt := strings.IndexByte(s[:min(len(s), 6)], '>')
	if gt < 2 || !isDigits(s[1:gt]) || len(s) < gt+3 || s[gt+1] != '1' || s[gt+2] != ' ' {
		return s, false
	}
	f := strings.SplitN(s[gt+3:], " ", 6)
	if len(f) < 6 || len(f[0]) < 10 || f[0][4] != '-' {
		return s, false
	}
	msg := f[5]
	switch {
	case strings.HasPrefix(msg, "- "):
		msg = msg[2:]
	case msg == "-":
		msg = ""
	case strings.HasPrefix(msg, "["):
		// Structured data: elements until one is not followed by another.
		for strings.HasPrefix(msg, "[") {
			e := strings.IndexByte(msg, ']')
			if e < 0 {
				return s, false
			}
			msg = msg[e+1:]
		}
		msg = strings.TrimPrefix(msg, " ")
	default:
		return s, false
	}
	msg = strings.TrimPrefix(msg, "\ufeff") // the BOM RFC 5424 allows before a UTF-8 message
	pri, _ := strconv.Atoi(s[1:gt])
	l.Syslog, l.Stamp, l.Host, l.Tag = true, f[0], f[1], f[2]
	if f[2] == "kernel" {
		l.Kernel = true
		l.Priority = pri & 7
	}
	return msg, true
}

// stripMonotonicHost removes the host and tag journalctl -o short-monotonic puts after the
// stamp ("[12345.678901] web1 kernel: "), leaving the stamp for stripKernelStamp. Another
// program's record in the same mode ("[12345.678901] fedora systemd-oomd[812]: Killed ...",
// systemd logs-show.c output_short: the monotonic time, the host, the identifier and its
// pid; h25c) is that program's syslog line, not the kernel's: its host and tag are read
// as a syslog line's.
func stripMonotonicHost(s string, l *Line) string {
	end := strings.IndexByte(s[:min(len(s), 48)], ']')
	if end < 3 || end+2 >= len(s) || s[end+1] != ' ' {
		return s
	}
	rest := s[end+2:]
	sp := strings.IndexByte(rest, ' ')
	if sp > 0 && !strings.HasPrefix(rest[sp+1:], "kernel: ") && hostName(rest[:sp]) && monotonicProgramTag(rest[sp+1:]) {
		if _, ok := uptimeMicros(strings.TrimSpace(s[1:end])); ok {
			if t, ok := syslogTag(rest[sp+1:], strings.TrimSpace(s[1:end]), rest[:sp], l); ok {
				return t
			}
		}
		return s
	}
	if sp <= 0 || !strings.HasPrefix(rest[sp+1:], "kernel: ") || strings.ContainsAny(rest[:sp], ":[]()") {
		return s
	}
	stamp := strings.TrimSpace(s[1:end])
	if lt := strings.Index(stamp, " <"); lt > 0 && strings.HasSuffix(stamp, ">") {
		// -o short-delta: "[  123.456789 <    0.000001>]", the time since the record
		// before in angle brackets (systemd logs-show.c output_short, OUTPUT_SHORT_DELTA).
		stamp = stamp[:lt]
	}
	if _, ok := uptimeMicros(stamp); !ok {
		return s
	}
	return "[" + stamp + "] " + rest[sp+1+len("kernel: "):]
}

// monotonicProgramTag: t starts with journald's "IDENTIFIER[PID]: " of a program (a word of
// letters, digits, '-', '_', '.' or '@', then the pid in brackets).
func monotonicProgramTag(t string) bool {
	b := strings.IndexByte(t[:min(len(t), 64)], '[')
	if b < 2 || !hostName(t[:b]) && !strings.Contains(t[:b], "@") {
		return false
	}
	e := strings.IndexByte(t[b:], ']')
	return e > 1 && isDigits(t[b+1:b+e]) && strings.HasPrefix(t[b+e:], "]: ")
}

// stripChatStamp removes a chat or IRC log's "HH:MM[:SS] <nick> " (irssi's default log
// format, HexChat's and Element's copy; bracketed, "[HH:MM] <nick> ", when the stamp came
// with a '[' the caller dropped): each line of a paste sent as a message of its own.
func stripChatStamp(s string, bracketed bool) (string, bool) {
	if len(s) < 10 || !isDigit(s[0]) || !isDigit(s[1]) || s[2] != ':' || !isDigit(s[3]) || !isDigit(s[4]) {
		return s, false
	}
	i := 5
	if s[i] == ':' && i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) {
		i += 3
	}
	if bracketed {
		if s[i] != ']' {
			return s, false
		}
		i++
	}
	if i+3 >= len(s) || s[i] != ' ' || s[i+1] != '<' {
		return s, false
	}
	gt := strings.IndexByte(s[i+2:min(len(s), i+40)], '>')
	if gt < 1 || i+3+gt >= len(s) || s[i+3+gt] != ' ' || strings.IndexByte(s[i+2:i+2+gt], ' ') >= 0 {
		return s, false
	}
	return s[i+4+gt:], true
}

// stripMultiplexer removes the name a log multiplexer puts before each line of a container's
// output: docker compose logs' "NAME  | " (the container's name padded to the widest of the
// project, compose cmd/formatter/logs.go; v2 names "service-1", v1 "project_service_1", so
// the name ends in a replica's number), and stern's "POD CONTAINER " (its default template
// "{{.PodName}} {{.ContainerName}} {{.Message}}"; a pod of a Deployment or a DaemonSet ends
// in the five characters Kubernetes draws from "bcdfghjklmnpqrstvwxz2456789", which no word
// of prose or of a log ends in so often). Ruled out by the first word: its bytes are scanned
// once, and most lines fail at the byte after it.
func stripMultiplexer(s string) (string, bool) {
	w := 0
	for w < len(s) && w < 64 && (isDigit(s[w]) || s[w]|0x20 >= 'a' && s[w]|0x20 <= 'z' || s[w] == '-' || s[w] == '_' || s[w] == '.') {
		w++
	}
	if w < 3 || w+2 >= len(s) || s[w] != ' ' {
		return s, false
	}
	name := s[:w]
	if s[w+1] == ' ' || s[w+1] == '|' {
		// compose: blanks, then "| " (or "|" at the end of an empty line).
		k := w
		for k < len(s) && s[k] == ' ' {
			k++
		}
		if k == len(s) || s[k] != '|' || !replicaName(name) {
			return s, false
		}
		if k+1 < len(s) && s[k+1] != ' ' {
			return s, false
		}
		return s[min(k+2, len(s)):], true
	}
	if !podName(name) || !(s[w+1] >= 'a' && s[w+1] <= 'z') {
		// The container's name is a DNS label that starts with a letter in practice; a
		// number there is a table's column ("br-bf2c7 1500 71 0 ...", netstat -i).
		return s, false
	}
	c := w + 1
	for c < len(s) && c-w < 64 && (s[c] >= 'a' && s[c] <= 'z' || isDigit(s[c]) || s[c] == '-') {
		c++
	}
	if c == w+1 || c >= len(s) || s[c] != ' ' {
		if c == len(s) && c > w+1 {
			return "", true // an empty line of the container
		}
		return s, false
	}
	return s[c+1:], true
}

// replicaName: a compose container's name, ending in '-' or '_' and its replica's number.
func replicaName(n string) bool {
	d := len(n)
	for d > 0 && isDigit(n[d-1]) {
		d--
	}
	return d < len(n) && d > 1 && (n[d-1] == '-' || n[d-1] == '_')
}

// podName: a Kubernetes pod's name made by a controller, "NAME-xxxxx" with the five
// characters of k8s.io/apimachinery/pkg/util/rand's alphabet (no vowels, no 0, 1 or 3), and
// a NAME of three characters or more (netstat -i's "br-bf2c7", a Docker bridge cut to
// eight columns, is no pod).
func podName(n string) bool {
	if len(n) < 9 || n[len(n)-6] != '-' {
		return false
	}
	for i := len(n) - 5; i < len(n); i++ {
		if !strings.ContainsRune("bcdfghjklmnpqrstvwxz2456789", rune(n[i])) {
			return false
		}
	}
	for i := 0; i < len(n)-6; i++ {
		if !(n[i] >= 'a' && n[i] <= 'z' || isDigit(n[i]) || n[i] == '-' || n[i] == '.') {
			return false
		}
	}
	return true
}

// stripTestDriverSerial removes the prefix the NixOS test driver (nixos/lib/test-driver,
// its logger's log_serial: f"{machine} # {message}") puts before each line a VM wrote to its
// serial console, when what follows is a kernel record with its dmesg stamp ("pleroma #
// [   49.981565] [    475]     0   475 ..."): the machine's name is a node's name (letters,
// digits, '_', '-'), and the VM is the host whose kernel printed the record, so the name is
// its host name. Anything else behind the prefix (the VM's getty, systemd's status lines)
// stays as the driver printed it, as do a shell comment ("x=1 # [   12.345678] ..." has no
// bare name before " # ") and a name before a number in brackets that is no dmesg stamp.
// Ruled out by the byte after the first word.
func stripTestDriverSerial(s string, l *Line) (string, bool) {
	w := 0
	for w < len(s) && w < 64 && (isDigit(s[w]) || s[w]|0x20 >= 'a' && s[w]|0x20 <= 'z' || s[w] == '-' || s[w] == '_') {
		w++
	}
	if w+4 >= len(s) || s[w] != ' ' || s[w+1] != '#' || s[w+2] != ' ' {
		return s, false
	}
	rest := s[w+3:]
	if k := len(rest); k > 3 && rest[0] == '<' && rest[2] == '>' && rest[1] >= '0' && rest[1] <= '7' {
		rest = rest[3:]
	}
	if rest == "" || rest[0] != '[' || !dmesgStampAt(rest) {
		return s, false
	}
	l.Host = s[:w]
	return s[w+3:], true
}

// stripIperfTitle removes the title iperf3 -T/--title puts before each line a client prints
// (iperf_api.c iperf_printf: "%s:  ", the title, a colon and two blanks), so tryIperf reads
// the table behind it ("s3:  [  4]   0.00-1.00   sec   401 MBytes  3.37 Gbits/sec    0
// 446 KBytes"); several clients started at once with their own titles interleave their rows,
// each still a row of the table. Only a one-word title before an iperf row, its "[ ID]"
// header or its "- - -" separator: a colon with one blank, a sentence's "Note:  [1] see
// above" (no iperf row behind it), and a field "Bandwidth:  3.37 Gbits/sec" stay as they are.
// Ruled out by the byte after the first word.
func stripIperfTitle(s string) (string, bool) {
	w := 0
	for w < len(s) && w < 64 && s[w] != ':' && s[w] != ' ' && s[w] != '\t' {
		w++
	}
	if w == 0 || w+4 >= len(s) || s[w] != ':' || s[w+1] != ' ' || s[w+2] != ' ' || s[w+3] == ' ' {
		return s, false
	}
	rest := s[w+3:]
	switch {
	case rest[0] == '[' && (strings.HasPrefix(rest, "[ ID] Interval") || strings.Contains(rest, "sec ") && reIperfRow.MatchString(strings.TrimSpace(rest))):
	case strings.HasPrefix(rest, "- - - - "):
	default:
		return s, false
	}
	return rest, true
}

// reDmesgStampStart is printk's "[%5lu.%06lu] " at a line's start; a level's tag before a
// program's own stamp ("[ERROR] [1700000000.123456789]: ...", a ROS node's) is no source tag.
var reDmesgStampStart = lazyre.New(`^\[ *\d{1,10}\.\d{6}\] `)

// stripSourceTag removes a log collector's tag of the source a line came from, a word in
// brackets ("[cron0] ", "[node-3] "), when a syslog date or a dmesg stamp follows it: a
// multiplexed log (a container's, a parallel ssh's, a CI's) of the hosts' syslogs. A
// bracketed word before prose or before a program's own output stays.
func stripSourceTag(s string) (string, bool) {
	e := strings.Index(s[:min(len(s), 42)], "] ")
	if e < 2 || strings.ContainsAny(s[1:e], " []") || isDigit(s[1]) {
		return s, false
	}
	t := s[e+2:]
	if len(t) < 16 || !(reSyslogDate.MatchString(t) || reDmesgStampStart.MatchString(t)) {
		return s, false
	}
	return t, true
}
