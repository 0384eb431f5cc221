package artifact

import "strings"

// An application's log line that reports a system call's error by its errno (issue 29 item
// 4, corpus 1079): Suricata's "(AFPWritePacket) -- [ERRCODE: SC_ERR_SOCKET(200)] - Sending
// packet failed on socket 8: No buffer space available". No reader takes another program's
// log, and the line holds too few numbers for unreadEvidence, so a paste of such lines and
// prose exited 3 as if it held no evidence. The errno is evidence of this domain: the line is
// listed as unread with what the errno means, and nothing is diagnosed from it.
//
// The line must look like a log record, not a sentence about the error: it holds a digit (a
// time, a pid, a socket's number) and the errno's text follows ": " as strerror's is
// printed ("...: No buffer space available"), or the errno's name stands as a word.

// errnoReasons: the errnos of this domain and what they mean for it.
var errnoReasons = []errnoReason{
	// ENOBUFS on a send: the packet was dropped on the way out: the qdisc or the device's
	// queue was full (net_xmit_errno in include/linux/netdevice.h turns NET_XMIT_DROP into
	// -ENOBUFS; af_packet.c packet_snd returns it), or the send's skb could not be had
	// (sock_alloc_send_pskb in net/core/sock.c). Alone it is no page allocation failure.
	{"No buffer space available", "ENOBUFS", "an application's socket error ENOBUFS (No buffer space available): a send dropped at a full qdisc or device queue, or a socket buffer at its limit; not by itself a page allocation failure; headroom has no reader for this log"},
	// EAGAIN on a non-blocking socket: the call would have blocked. On a receive nothing was
	// queued (the opposite of a full receive buffer); on a send the socket's send buffer was
	// full for now (sock_alloc_send_pskb waits for sk_wmem_alloc below sk_sndbuf, and with
	// MSG_DONTWAIT/O_NONBLOCK returns -EAGAIN: net/core/sock.c; a unix socket's peer queue
	// past its backlog likewise, net/unix/af_unix.c). The kernel counts no drop for it, and
	// it is no memory failure; strerror(EAGAIN) is "Resource temporarily unavailable".
	{"Resource temporarily unavailable", "EAGAIN", "an application's socket error EAGAIN (Resource temporarily unavailable): a non-blocking socket call that would have blocked: on a receive nothing was queued, on a send the socket's send buffer (or a local peer's queue) was full for the moment; no drop the kernel counts and no memory failure by itself (the sender outran the path or the reader); headroom has no reader for this log"},
	// libusb's LIBUSB_ERROR_NO_MEM, whose text (libusb/strerror.c) is "Insufficient memory":
	// on Linux a synchronous or bulk transfer larger than usbfs allows fails so, because
	// usbfs caps the memory of all its transfers at usbfs_memory_mb (16 MB by default;
	// drivers/usb/core/devio.c usbfs_increase_memory_usage returns -ENOMEM past it, which
	// libusb's linux_usbfs backend maps to LIBUSB_ERROR_NO_MEM). A USB subsystem's own
	// buffer limit: no statement about the kernel's free memory.
	{"Insufficient memory", "LIBUSB_ERROR_NO_MEM", "libusb's error LIBUSB_ERROR_NO_MEM (Insufficient memory): a USB transfer's buffer was refused; on Linux usbfs caps its transfers' memory at usbfs_memory_mb (16 MB by default, drivers/usb/core/devio.c), a USB subsystem's own limit, not the kernel's free memory; headroom has no reader for this log"},
	// ENFILE and EMFILE (h12b): the system's file table (fs.file-max, fs/file_table.c
	// alloc_empty_file) or the process's descriptors (RLIMIT_NOFILE, fs/file.c alloc_fd)
	// are used up: descriptor limits, no memory failure. nginx prints "accept4() failed (24:
	// Too many open files)", Go's net/http "accept4: too many open files; retrying", Squid's
	// xstrerr "(24) Too many open files", httpd's APR "(24)Too many open files: ...". ENFILE's
	// text holds EMFILE's, so it is asked first.
	{"Too many open files in system", "ENFILE", "the errno ENFILE (Too many open files in system): the kernel's system-wide file table is full (fs.file-max; fs/file_table.c alloc_empty_file): a descriptor limit of the host, not a failure of memory; headroom has no reader for this log"},
	{"Too many open files", "EMFILE", "the errno EMFILE (Too many open files): the process used up its descriptors (RLIMIT_NOFILE, LimitNOFILE, a program's own max such as Squid's max_filedescriptors; fs/file.c alloc_fd): a descriptor limit, not memory; headroom has no reader for this log"},
	// EADDRNOTAVAIL (fix25b, corpus 2165: Go's "dial HOST:8080: connect: cannot assign requested
	// address"): a connect() that found no free local port toward that destination
	// (net/ipv4/inet_hashtables.c __inet_hash_connect: every port of
	// net.ipv4.ip_local_port_range in use or held in TIME_WAIT toward the same address and
	// port), typical of a load generator opening connections faster than they leave
	// TIME_WAIT; on a bind() the address is not one of the host's (inet_bind, unless
	// ip_nonlocal_bind). A port limit of the client, no memory or queue of the kernel.
	{"Cannot assign requested address", "EADDRNOTAVAIL", "an application's socket error EADDRNOTAVAIL (Cannot assign requested address): on a connect (a dial) no free local port toward that destination, every port of net.ipv4.ip_local_port_range in use or held in TIME_WAIT (net/ipv4/inet_hashtables.c __inet_hash_connect; a client opening connections faster than they leave TIME_WAIT: `ss -s`, `ss -tan state time-wait | wc -l`); on a bind the address is not one of the host's; a port limit of the client, not a full queue or memory; headroom has no reader for this log"},
	{"Cannot allocate memory", "ENOMEM", "an application's error ENOMEM (Cannot allocate memory): the program could not get memory (a system call or its allocator); headroom has no reader for this log"},
}

// errnoHanded: another program's syslog or journal line (any tag) whose message is a
// structured log record (structuredRecordStart: JSON, logfmt, a record with its own date
// stamp) holding ENOBUFS's, EMFILE's or EADDRNOTAVAIL's text, which vpnUDPSendLine reads as a
// UDP send refused and errnoRecordLine names (h31c): a Go, Rust or Python program's record
// under its journal tag ("otelcol-contrib[812]: 2026-...\terror\t...\t{"error": "write udp
// ...: sendto: no buffer space available"}"). The first bytes decide before any search, so
// the other lines of a syslog cost a compare (no needle: the line pass's anchors are all
// taken, and a needle past them would hand every syslog line to a window).
func errnoHanded(l *Line) bool {
	return !l.Kernel && l.Syslog && structuredRecordStart(l.Text) && errnoTextIn(l.Text)
}

// structuredRecordStart: t starts like a structured log record: a JSON object, a logfmt
// record's first key (level=, lvl=, time=, ts=, t=, msg=), or a date of its own
// ("2026-11-30T..." of zap's console form and slog's text, "2026/11/30 ..." of Go's log).
func structuredRecordStart(t string) bool {
	if len(t) < 8 {
		return false
	}
	switch t[0] {
	case '{':
		return t[1] == '"'
	case 'l':
		return strings.HasPrefix(t, "level=") || strings.HasPrefix(t, "lvl=")
	case 't':
		return strings.HasPrefix(t, "time=") || strings.HasPrefix(t, "ts=") || strings.HasPrefix(t, "t=")
	case 'm':
		return strings.HasPrefix(t, "msg=")
	}
	return isDigit(t[0]) && (t[4] == '-' || t[4] == '/') && isDigits(t[:4])
}

// errnoTextIn: t holds ENOBUFS's, EMFILE's or EADDRNOTAVAIL's text, either case of its first
// letter.
func errnoTextIn(t string) bool {
	return strings.Contains(t, "o buffer space available") || strings.Contains(t, "o many open files") ||
		strings.Contains(t, "annot assign requested")
}

// maxErrnoLineBytes: a log record is one line; a paragraph that names the error is prose.
const maxErrnoLineBytes = 512

// errnoLogLine says why t is an application's log line with one of errnoReasons' errnos.
func errnoLogLine(t string) (string, bool) { return errnoLine(t, false) }

// errnoRecordLine: as errnoLogLine for the message of a syslog record, whose stamp and tag
// already make it a log record: its message needs no digit ("pdns_recursor[45931]: Network
// error in web thread: Accepting a connection: Too many open files", fix32a).
func errnoRecordLine(t string) (string, bool) { return errnoLine(t, true) }

func errnoLine(t string, record bool) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		// A Java record whose stack trace a web page glued onto it ("IOException: Too many
		// open filesat sun.nio.ch.ServerSocketChannelImpl.accept0(Native Method)at ..."): the
		// record is the part before the first frame.
		h, ok := javaGluedTraceHead(t)
		if !ok || len(h) > maxErrnoLineBytes {
			return "", false
		}
		t = h
	}
	if tmpfsNoSpaceLine(t) {
		return tmpfsNoSpaceWhy, true // ENOSPC on a tmpfs: RAM-backed space (unreadtmpfs.go, fix30a)
	}
	if strings.Contains(t, "i/o timeout") && goDNSTimeoutLine(t) {
		return goDNSTimeoutWhy, true // unreadgodns.go
	}
	if _, ok := runtimeOOMLine(t); ok {
		return "", false // .NET's "Insufficient memory to continue ..." is no libusb error: appOOMLine names it
	}
	if why, ok := jdkWinsockENOBUFSLine(t); ok {
		return why, true
	}
	if why, ok := nodeErrnoLine(t); ok {
		return why, true // Node.js's "Error: read ENOBUFS", "code: 'EMFILE'" (langruntime.go)
	}
	if why, ok := netlinkRecvENOBUFS(t); ok {
		return why, true // a netlink socket's receive buffer overrun, events lost (unreadnetlink.go)
	}
	if why, ok := forkENOMEMRecord(t); ok {
		return why, true // "proc_open(): fork failed - Cannot allocate memory" (forkenomem.go, fix42b)
	}
	if !record && !hasDigit(t) {
		if shellForkENOMEM(t) {
			return shellForkENOMEMWhy, true // errno_locales.go
		}
		if why, ok := sendENOBUFSQuoted(t); ok {
			return why, true // a send refused with ENOBUFS, quoted without a figure (fix55a_sendenobufs.go)
		}
		return javaErrnoLine(t)
	}
	if strings.Contains(t, "Allocator: Cannot mmap ") {
		return clickHouseMmapWhy + "; headroom has no reader for this log", true // unreadagent.go
	}
	if why, ok := errnoTableLine(t, errnoReasons); ok {
		return why, true
	}
	if en := errnoTranslatedTail(t); en != "" {
		return errnoWhyOf(en) // strerror in the locale's words (errno_locales.go)
	}
	if why, ok := pythonErrnoNumbered(t); ok {
		return why, true // "OSError: [Errno 12] Cannot allocate m", its text cut (fix36c)
	}
	return "", false
}

// pythonErrnoNumbers: Linux's numbers (asm-generic/errno-base.h, errno.h) of errnoReasons'
// errnos, as Python's OSError prints them in "[Errno N]".
var pythonErrnoNumbers = map[string]string{"11": "EAGAIN", "12": "ENOMEM", "23": "ENFILE", "24": "EMFILE", "99": "EADDRNOTAVAIL", "105": "ENOBUFS"}

// pythonErrnoNumbered: a Python exception's last line, "OSError: [Errno 12] Cannot allocate
// m", whose strerror text a paste cut short (or left out): the number names the errno. The
// exception's class (an identifier ending in "Error" or a module's ".error": OSError,
// IOError, socket.error, BlockingIOError) stands right before ": [Errno N]" at the line's start or
// after a space, and what follows "] " is empty or the start of the errno's own text. A
// sentence naming "[Errno 12]" has no class before it; another text after the number is
// another errno's message or another platform's numbering.
func pythonErrnoNumbered(t string) (string, bool) {
	k := strings.Index(t, ": [Errno ")
	if k <= 0 {
		return "", false
	}
	cls := t[:k]
	if j := strings.LastIndexByte(cls, ' '); j >= 0 {
		cls = cls[j+1:]
	}
	if !(len(cls) > len("Error") && strings.HasSuffix(cls, "Error")) && !strings.HasSuffix(cls, ".error") {
		return "", false
	}
	for _, c := range cls {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", false
		}
	}
	rest := t[k+len(": [Errno "):]
	j := strings.IndexByte(rest, ']')
	if j <= 0 {
		return "", false
	}
	name, ok := pythonErrnoNumbers[rest[:j]]
	if !ok {
		return "", false
	}
	tail := strings.TrimSpace(rest[j+1:])
	for _, e := range errnoReasons {
		if e.name == name && len(tail) < len(e.text) && strings.HasPrefix(e.text, tail) {
			return e.why, true
		}
	}
	return "", false
}

// errnoNumberBefore: the errno's text follows its number the way C programs print both:
// Open5GS's ogs_log_message "(11:Resource temporarily unavailable)" (errno, ':', strerror)
// and Kamailio's "errno=11 (Resource temporarily unavailable)"; before the text stands
// "N:" or "N (" with N the errno's digits.
func errnoNumberBefore(before string) bool {
	before = strings.TrimSuffix(before, "(")
	before = strings.TrimRight(before, " ")
	if b, ok := strings.CutSuffix(before, ")"); ok {
		// The number in its own parentheses before the text: Squid's xstrerr "(%d) %s"
		// (compat/xstrerror.cc: "comm_open: socket failure: (105) No buffer space
		// available") and httpd's ap_log_error of an APR status "(%d)%s: " ("(105)No buffer
		// space available: AH00957: ...").
		n := len(b)
		for n > 0 && b[n-1] >= '0' && b[n-1] <= '9' {
			n--
		}
		return n > 0 && n < len(b) && len(b)-n <= 3 && b[n-1] == '('
	}
	before = strings.TrimSuffix(before, ":")
	n := len(before)
	for n > 0 && before[n-1] >= '0' && before[n-1] <= '9' {
		n--
	}
	return n < len(before) && len(before)-n <= 3 && (n == 0 || before[n-1] == '(' || before[n-1] == '=' || before[n-1] == ' ')
}

// pythonErrnoAt: t[k:k+n], an errno's text, is Python's OSError as it prints itself,
// "[Errno %d] %s" (Objects/exceptions.c OSError_str), and ends the message (the line's end,
// or ": 'path'", a quote or bracket closing it): Home Assistant's and zeroconf's "OSError:
// [Errno 105] No buffer space available", SABnzbd's and Deluge's "[Errno 12] Cannot
// allocate memory" (h24a and h24c wrote it twice; one reader). Not a sentence that goes on
// ("[Errno 105] No buffer space available usually means ...") nor a condition before it.
func pythonErrnoAt(t string, k, n int) bool {
	b, ok := strings.CutSuffix(t[:k], "] ")
	if !ok {
		return false
	}
	d := len(b)
	for d > 0 && b[d-1] >= '0' && b[d-1] <= '9' {
		d--
	}
	if d == len(b) || len(b)-d > 3 || !strings.HasSuffix(b[:d], "[Errno ") || conditionLead(b[:d]) {
		return false
	}
	tail := strings.TrimLeft(t[k+n:], " \t")
	return tail == "" || strings.IndexByte(":'\")],.", tail[0]) >= 0
}

// goErrnoText: strerror's text as Go's syscall package spells it, its first letter in lower case.
func goErrnoText(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// wordAt: t[k:k+n] is a word of its own ("ENOBUFS", "(ENOBUFS)", "-ENOBUFS", not "XENOBUFSY").
func wordAt(t string, k, n int) bool {
	isW := func(c byte) bool {
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	return (k == 0 || !isW(t[k-1])) && (k+n == len(t) || !isW(t[k+n]))
}

// javaErrnoLine: a Java exception's first line states the errno's text after its class
// ("java.io.IOException: No buffer space available", "java.net.SocketException: Cannot
// allocate memory"): the JDK's native socket code throws it with strerror's text
// (OpenJDK libnio Net.c handleSocketError, JNU_ThrowByNameWithLastError: the message is
// strerror(errno)).
// It holds no digit, and it is a record, not a sentence: the class stands before ": ".
func javaErrnoLine(t string) (string, bool) {
	if !strings.Contains(t, "Exception: ") {
		return "", false
	}
	for _, e := range errnoReasons {
		if k := strings.Index(t, e.text); k >= len("Exception: ") && t[k-len("Exception: "):k] == "Exception: " {
			return e.why, true
		}
		// netty's native transports throw with the errno's text appended to the message
		// after a space (netty_unix_errors.c netty_unix_errors_throwRuntimeExceptionErrorNo:
		// message + strerror(errno)): "RuntimeException: failed to create io_uring ring fd
		// Cannot allocate memory". The text ends the line, after the exception's message.
		if x := strings.Index(t, "Exception: "); x >= 0 && strings.HasSuffix(strings.TrimRight(t, " \t"), " "+e.text) && len(strings.TrimRight(t, " \t")) > x+len("Exception: ")+len(e.text) {
			return e.why, true
		}
	}
	return "", false
}

// The JDK's text for WSAENOBUFS (fix23b, corpus 2062): "java.net.SocketException: No buffer
// space available (maximum connections reached?): connect". The parenthesis is the JDK's
// Windows winsock error table (net_util_md.c, WSAENOBUFS); its Unix code throws strerror's
// plain "No buffer space available". On Windows a client that piles closed sockets up in
// TIME_WAIT runs out of ephemeral ports and connect() fails so; on Linux a connect() with no
// free ephemeral port fails EADDRNOTAVAIL ("Cannot assign requested address":
// net/ipv4/inet_hashtables.c __inet_hash_connect), not ENOBUFS. The line is read as a port
// or connection limit of the client, never as the host's kernel memory. The record form
// only: the text followed by ": " and the call's name ("connect", "bind"); a sentence that
// names the message without the call is prose.
const jdkWinsockENOBUFS = "No buffer space available (maximum connections reached?): "

const jdkWinsockENOBUFSWhy = "the JDK's text for WSAENOBUFS on connect (its Windows winsock error table: \"No buffer space available (maximum connections reached?)\"; on Linux the JDK prints strerror's plain \"No buffer space available\"): a client out of ephemeral ports or connections, typically closed sockets piling up in TIME_WAIT; on Linux a connect() with no free ephemeral port fails EADDRNOTAVAIL (\"Cannot assign requested address\", net/ipv4/inet_hashtables.c __inet_hash_connect), not ENOBUFS; no evidence of a kernel memory shortage; headroom has no reader for this log"

// jdkWinsockENOBUFSLine says why t holds the JDK's WSAENOBUFS record (jdkWinsockENOBUFS).
func jdkWinsockENOBUFSLine(t string) (string, bool) {
	k := strings.Index(t, jdkWinsockENOBUFS)
	if k < 0 {
		return "", false
	}
	call := t[k+len(jdkWinsockENOBUFS):]
	n := 0
	for n < len(call) && call[n] >= 'a' && call[n] <= 'z' {
		n++
	}
	switch call[:n] {
	case "connect", "bind", "listen", "create", "socket", "accept":
		return jdkWinsockENOBUFSWhy, true
	}
	return "", false
}

// javaGluedTraceHead returns the part of t before a Java stack trace glued onto it, the
// frames' line breaks lost: "at " right after a non-space byte and followed by a frame,
// a dotted name and its "(" ("filesat sun.nio.ch.ServerSocketChannelImpl.accept0(Native
// Method)"). Only a record with an exception ("Exception: ", "Error: ") before the frame
// counts; a sentence that says "at" has a space before it.
func javaGluedTraceHead(t string) (string, bool) {
	x := strings.Index(t, "Exception: ")
	if x < 0 {
		x = strings.Index(t, "Error: ")
	}
	if x < 0 {
		return "", false
	}
	for k := x; ; {
		j := strings.Index(t[k:], "at ")
		if j < 0 {
			return "", false
		}
		j += k
		k = j + 3
		if j == 0 || t[j-1] == ' ' || t[j-1] == '\t' {
			continue
		}
		if isJavaFrame(t[j+3:]) {
			return t[:j], true
		}
	}
}

// isJavaFrame: f starts with a frame's qualified method, "pkg.Class.method(": letters,
// digits, '_', '$', '<', '>' and at least two dots before the parenthesis.
func isJavaFrame(f string) bool {
	dots := 0
	for i := 0; i < len(f) && i < 200; i++ {
		c := f[i]
		switch {
		case c == '(':
			return dots >= 2 && i > 0
		case c == '.':
			dots++
		case c == '_' || c == '$' || c == '<' || c == '>' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return false
}

// errnoReason: an errno of this domain, its strerror text, its name and what it means.
type errnoReason struct{ text, name, why string }

// errnoTableLine says why t holds one of table's errnos in the forms programs print them:
// strerror's text after ": " or after its number ("(24: Too many open files)", "(105) No
// buffer ...", "errno=11 (Resource ...)"), Go's lower-case text after ": ", Rust's "(os
// error N)", Python's "[Errno N] TEXT", Rust's Debug form, or the errno's name as a word.
func errnoTableLine(t string, table []errnoReason) (string, bool) {
	for _, e := range table {
		if k := strings.Index(t, e.text); k >= 2 && t[k-2:k] == ": " || k >= 1 && errnoNumberBefore(t[:k]) {
			return e.why, true
		}
		// Go's programs (a CNI plugin, an agent) print the errno's text in lower case
		// (syscall's errors table, zerrors_linux_*.go: ENOBUFS "no buffer space
		// available", ENOMEM "cannot allocate memory"), after the same ": ".
		if k := strings.Index(t, goErrnoText(e.text)); k >= 2 && t[k-2:k] == ": " {
			return e.why, true
		}
		// Rust's std::io::Error prints strerror's text and then the errno's number in its
		// own words (library/std/src/io/error.rs, Display of Repr::Os: "{detail} (os error
		// {code})"): Vector's "error=Too many open files (os error 24)" (fix26d).
		if k := strings.Index(t, e.text); k >= 0 && strings.HasPrefix(t[k+len(e.text):], " (os error ") {
			return e.why, true
		}
		// The same with the text's first letter lower-cased, as a title or a wrapping
		// error's context retypes it (fix41b, corpus 3460: spin#2119's title "I get \"cannot
		// allocate memory (os error 12)\""): held to the errno's own Linux number, so that
		// the words alone with another code are not taken.
		if k := strings.Index(t, goErrnoText(e.text)); k >= 0 && rustOSErrorNumbered(t[k+len(e.text):], e.name) {
			return e.why, true
		}
		if k := strings.Index(t, e.text); k >= 0 && (pythonErrnoAt(t, k, len(e.text)) || rustOsErrorAt(t, k)) {
			return e.why, true
		}
		if k := strings.Index(t, e.name); k >= 0 && wordAt(t, k, len(e.name)) {
			return e.why, true
		}
	}
	return "", false
}

// rustOSErrorNumbered: rest starts with Rust's " (os error N)" whose N is errno name's Linux
// number (pythonErrnoNumbers).
func rustOSErrorNumbered(rest, name string) bool {
	num, ok := strings.CutPrefix(rest, " (os error ")
	if !ok {
		return false
	}
	n, _, ok := strings.Cut(num, ")")
	return ok && pythonErrnoNumbers[n] == name
}
