package artifact

import "testing"

// fix36d: a program's own report that the peer closed its TCP connection (OpenSSH's client,
// borg's JSON log, a Go program's net.OpError, Bacula's or Bareos's director) is named as
// unread, with no OOM and no finding fed; the words alone are not.
func TestFix36dBrokenConnectionNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"Read from remote host backup.example.net: Connection reset by peer\n", "OpenSSH client"},
		{"client_loop: send disconnect: Broken pipe\n", "OpenSSH client"},
		// borg --log-json relays ssh's stderr as "Remote: ..." records.
		{`{"type": "log_message", "time": 1767238550.64, "message": "Remote: Read from remote host repo.example.net: Connection reset by peer", "levelname": "WARNING", "name": "root"}` + "\n", "OpenSSH client"},
		{`{"type": "log_message", "time": 1767238550.65, "message": "Connection to remote host is broken. Broken Pipe", "levelname": "ERROR", "name": "borg.archiver", "msgid": "ConnectionBrokenWithHint"}` + "\n", "ConnectionBrokenWithHint"},
		{"stream: read error: read tcp 10.1.2.3:40122->10.1.2.9:8888: read: connection reset by peer\n", "net.OpError"},
		{"upload failed: write tcp6 [fd00::2]:5000->[fd00::9]:443: write: broken pipe\n", "net.OpError"},
		{"28-Nov 03:12 dir JobId 812: Fatal error: Network error with FD during Backup: ERR=Connection reset by peer\n", "dird/backup.cc"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: unparsed %+v stated %v: want named (%s), no OOM", c.text, tl.Unparsed, statedOOM(tl), c.word)
		}
		checkAccount(t, tl)
	}
	// Counters: sentences that only name the words, a Go dial's other errno, a recommendation,
	// ssh's "Read from remote host" with no errno after it.
	for _, s := range []string{
		"there have been several GH issues now about frequent broken pipes, \"connection reset by peer\", etc.",
		"dial tcp 10.1.2.9:8888: connect: connection refused",
		"If you see connection reset by peer, set ServerAliveInterval 30 in ~/.ssh/config",
		"a broken pipe means the reader went away: read tcp sockets are not the cause",
		"Read from remote host failed",
		"the read: connection reset by peer errors stopped",
	} {
		if why, ok := connResetLine(s); ok {
			t.Errorf("%q named as a broken connection: %s", s, why)
		}
		if why, _, ok := serverOwnLine(s); ok {
			t.Errorf("%q named as a program's message: %s", s, why)
		}
	}
	tl := ParseString("This is not a new issue, there have been several GH issues now about frequent broken pipes, \"connection reset by peer\", etc.\n", "t", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("a sentence naming the words listed as unread: %+v", tl.Unparsed)
	}
}
