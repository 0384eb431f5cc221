package model

// ProgramListenFull is a program's own report that its listening socket's accept queue was
// full: the program read the queue and the backlog itself (uWSGI's master reads them with
// TCP_INFO, tcpi_unacked and tcpi_sacked: sk_ack_backlog and sk_max_ack_backlog for a
// listener) and logged them. It is the program's reading, not the kernel's ListenOverflows
// counter, which is not in such a text.
type ProgramListenFull struct {
	Program string `json:"program"` // "uwsgi"
	Socket  string `json:"socket"`  // the socket as the program names it (":3030", "127.0.0.1:5000")
	Queued  int64  `json:"queued"`  // connections waiting in the accept queue
	Backlog int64  `json:"backlog"` // the queue's length: min(the program's listen backlog, net.core.somaxconn)
	Line    string `json:"line"`    // the message, clipped
	Source  string `json:"source"`  // "line 12", "lines 12-40"
	// FirstLine is the line of the first report (Source's start).
	FirstLine int `json:"first_line"`
	// Count is how many such reports the text holds for this socket (a flood repeats one).
	Count int `json:"count"`
}

// ProgramBacklog is a program's own listen backlog setting the text shows (uWSGI's --listen
// on its command line, "listen = N" in its ini): the backlog it passes to listen(), which
// the kernel caps at net.core.somaxconn (__sys_listen, net/socket.c). A setting, no
// overflow.
type ProgramBacklog struct {
	Program string `json:"program"` // "uwsgi"
	Setting string `json:"setting"` // "--listen", "listen"
	Value   int64  `json:"value"`
	Source  string `json:"source"` // "line 37 (command line)"
}
