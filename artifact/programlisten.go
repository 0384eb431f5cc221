package artifact

import (
	"strings"

	"headroom/model"
)

// A program's own report that its listening socket's accept queue is full (fix19a). uWSGI's
// master reads each TCP listener's queue and backlog with TCP_INFO (tcpi_unacked and
// tcpi_sacked are sk_ack_backlog and sk_max_ack_backlog for a listener, net/ipv4/tcp.c
// tcp_get_info) and, when the queue has reached the backlog, logs
// "*** uWSGI listen queue of socket \"%s\" (fd: %d) full !!! (%llu/%llu) ***"
// (core/master_checks.c uwsgi_master_check_listen_queue; older: "... of socket %d full !!!
// (%d/%d) ***"). The line is named as the program's (unreadwebapp.go); here its figures
// become Timeline evidence (model.ProgramListenFull) that the listen-overflow rule reads.
// Only a report whose queue is at or past its backlog counts; a sentence that quotes the
// message as an example (a quote mark or "e.g." before it) is not the host's report.

const uwsgiListenNeedle = "uWSGI listen queue of socket "

// maxProgramListenSockets bounds the sockets kept (a flood repeats one socket).
const maxProgramListenSockets = 16

// uwsgiListenFull reads uWSGI's message from t: the socket, the queue and the backlog.
func uwsgiListenFull(t string) (socket string, queued, backlog int64, ok bool) {
	k := strings.Index(t, uwsgiListenNeedle)
	if k < 0 || quotedReport(t[:k]) {
		return "", 0, 0, false
	}
	rest := t[k+len(uwsgiListenNeedle):]
	f := strings.Index(rest, " full !!! (")
	if f < 0 {
		return "", 0, 0, false
	}
	socket = rest[:f]
	if p := strings.Index(socket, " (fd"); p >= 0 {
		socket = socket[:p]
	}
	socket = strings.Trim(socket, `"`)
	figs := rest[f+len(" full !!! ("):]
	if !startsWithDigit(figs) {
		return "", 0, 0, false
	}
	q, r, ok1 := nextInt(figs)
	if !ok1 || !strings.HasPrefix(r, "/") || !startsWithDigit(r[1:]) {
		return "", 0, 0, false
	}
	m, _, ok2 := nextInt(r[1:])
	if !ok2 {
		return "", 0, 0, false
	}
	return socket, q, m, true
}

// quotedReport: the words before a program's message show it is quoted, not logged: a quote
// mark or backtick right before it, or an example's lead-in in the same line.
func quotedReport(head string) bool {
	h := strings.TrimSuffix(strings.TrimRight(head, " "), "***")
	h = strings.TrimRight(h, " ")
	if h == "" {
		return false
	}
	switch h[len(h)-1] {
	case '"', '\'', '`':
		return true
	}
	if strings.HasSuffix(h, "“") || strings.HasSuffix(h, "‘") {
		return true
	}
	l := strings.ToLower(h)
	for _, w := range []string{"e.g.", "example", "such as", " like", "message ", "messages "} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// programListenFull records line i's report when it is uWSGI's full listen queue with the
// queue at or past its backlog (called for a line a program's reader named).
func (d *doc) programListenFull(i int) {
	t := d.ls[i].Text
	if !strings.Contains(t, uwsgiListenNeedle) {
		return
	}
	socket, q, m, ok := uwsgiListenFull(t)
	if !ok || m <= 0 || q < m {
		return
	}
	no := d.ls[i].No
	for k := range d.tl.ProgramListenFulls {
		p := &d.tl.ProgramListenFulls[k]
		if p.Program == "uwsgi" && p.Socket == socket {
			p.Count++
			if q-p.Backlog > p.Queued-p.Backlog || m != p.Backlog {
				p.Queued, p.Backlog = q, m // the fullest reading, or the last backlog
				p.Line = clip(strings.TrimSpace(t[strings.Index(t, uwsgiListenNeedle):]), 120)
			}
			p.Source = spanSource(p.FirstLine, no)
			return
		}
	}
	if len(d.tl.ProgramListenFulls) >= maxProgramListenSockets {
		return
	}
	k := strings.Index(t, uwsgiListenNeedle)
	line := strings.TrimSpace(t[k:])
	d.tl.ProgramListenFulls = append(d.tl.ProgramListenFulls, model.ProgramListenFull{
		Program: "uwsgi", Socket: socket, Queued: q, Backlog: m,
		Line: clip(line, 120), Source: spanSource(no, no), FirstLine: no, Count: 1,
	})
}

// maxProgramBacklogs bounds the backlog settings kept.
const maxProgramBacklogs = 8

// programBacklogLine reads line i when it sets uWSGI's listen backlog: a uwsgi command line
// with --listen N (core/uwsgi.c's option "listen", -l), or "listen = N" in an ini whose
// section is [uwsgi]. nginx's "listen 80;" (a port), a sentence naming --listen and an ini
// key of another section are not.
func (d *doc) programBacklogLine(i int) bool {
	if len(d.tl.ProgramBacklogs) >= maxProgramBacklogs {
		return false
	}
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.Contains(t, "listen") {
		return false
	}
	if v, ok := uwsgiCmdListen(t); ok {
		d.addBacklog(i, "--listen", v, "command line")
		return true
	}
	if v, ok := iniListen(t); ok && d.iniSection(i) == "uwsgi" {
		d.addBacklog(i, "listen", v, "ini [uwsgi]")
		return true
	}
	return false
}

func (d *doc) addBacklog(i int, setting string, v int64, form string) {
	d.tl.ProgramBacklogs = append(d.tl.ProgramBacklogs, model.ProgramBacklog{
		Program: "uwsgi", Setting: setting, Value: v,
		Source: spanSource(d.ls[i].No, d.ls[i].No) + " (" + form + ")",
	})
	d.used[i] = true
}

// uwsgiCmdListen: "uwsgi ... --listen N" (also "$ uwsgi", "sudo uwsgi", "--listen=N").
func uwsgiCmdListen(t string) (int64, bool) {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "# ")
	t = strings.TrimPrefix(t, "sudo ")
	if !strings.HasPrefix(t, "uwsgi ") {
		return 0, false
	}
	k := strings.Index(t, " --listen")
	if k < 0 {
		return 0, false
	}
	rest := t[k+len(" --listen"):]
	if rest == "" || (rest[0] != ' ' && rest[0] != '=') {
		return 0, false
	}
	rest = strings.TrimLeft(rest[1:], " ")
	if !startsWithDigit(rest) {
		return 0, false
	}
	v, _, ok := nextInt(rest)
	return v, ok
}

// iniListen: "listen = N" alone on its line.
func iniListen(t string) (int64, bool) {
	rest, ok := strings.CutPrefix(t, "listen")
	if !ok {
		return 0, false
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "=") {
		return 0, false
	}
	rest = strings.TrimSpace(rest[1:])
	if !startsWithDigit(rest) {
		return 0, false
	}
	v, r, ok := nextInt(rest)
	return v, ok && strings.TrimSpace(r) == ""
}

// iniSection: the name of the ini section line i is in ("[uwsgi]"), looking back at most
// 80 lines and not past a code fence or a blank run of prose.
func (d *doc) iniSection(i int) string {
	for j := i - 1; j >= 0 && j >= i-80; j-- {
		s := strings.TrimSpace(d.ls[j].Text)
		if strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") {
			return ""
		}
		if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' && !strings.ContainsAny(s[1:len(s)-1], " []") {
			return s[1 : len(s)-1]
		}
	}
	return ""
}
