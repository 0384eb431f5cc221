package artifact

import "testing"

// Bacula's and Bareos's own socket-layer messages (src/lib/bsock.c, bsock_tcp.cc,
// filed/backup.cc) are named as the program's broken connection: the sizes in them are one
// write's, never a socket buffer, and the text runs (it exited 3 with nothing read).
func TestFix17aBaculaSocketMessages(t *testing.T) {
	for _, c := range []struct {
		text string
		no   int
		word string
	}{
		{"27 | 2024-07-02 06:20:08 | host-fd JobId 202: Error: lib/bsock_tcp.cc:419 Wrote 262144 bytes to Storage daemon:10.0.0.9:9103, but only 229376 accepted.\n", 1, "but only M accepted"},
		{"28 | 2024-07-02 06:20:08 | host-fd JobId 202: Fatal error: filed/backup.cc:1405 Network send error to SD. ERR=Broken pipe\n", 1, "Network send error"},
		{"02-Jul 06:20 host-fd JobId 202: Error: bsock.c:427 Write error sending 65540 bytes to Storage daemon:10.0.0.9:9103: ERR=Connection reset by peer\n", 1, "Write error sending"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !h12bUnreadLine(tl, c.no, c.word) || statedOOM(tl) {
			t.Errorf("%q: unparsed %+v: want line %d named (%s)", c.text, tl.Unparsed, c.no, c.word)
		}
		checkAccount(t, tl)
	}
	// Counters: a sentence with the words, nmap's cipher message, a write without a figure.
	for _, s := range []string{
		"I wrote to the list, but only one person accepted the patch",
		"warning: 12 ciphers offered but only 3 accepted",
		"Wrote the file to disk, but only after a retry",
		"the network send error to the storage daemon keeps coming back",
		"Write error sending the report to the server",
	} {
		if why, _, ok := serverOwnLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

// An out-of-memory the author says came with the host's memory free ("Redis OOM crash with
// lots of free memory") is the program's own allocation failing, not the host's; a kill word
// keeps it a kill, and a title without the free memory stays stated.
func TestFix17aOOMWithMemoryFree(t *testing.T) {
	body := "\nIt crashed again tonight, the box is dedicated to it.\n"
	for _, title := range []string{
		"# Redis 3.0.6 OOM crash with lots of free memory",
		"# Out of memory error despite 6 GB free RAM",
	} {
		if tl := ParseString(title+"\n"+body, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: stated OOM, want none (memory free)", title)
		}
	}
	for _, title := range []string{
		"# Redis 3.0.6 OOM crash on the cache box",
		"# OOM killer kills redis despite lots of free memory",
		"# Out of memory on the backup server, free memory at zero",
	} {
		if tl := ParseString(title+"\n"+body, "t", Options{}); !statedOOM(tl) {
			t.Errorf("counter %q: no stated OOM", title)
		}
	}
}
