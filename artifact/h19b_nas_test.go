package artifact

import (
	"strings"
	"testing"
)

// Pre-round 19 (h19b): net/sunrpc/svcsock.c svc_tcp_sendto's short send (netFSLine).

// nfsd's short send quoted bare is named with what it proves (unread with its why), not
// prose; stamped it is a kernel log record.
func TestH19bRPCServerShortSendNamed(t *testing.T) {
	for _, line := range []string{
		"rpc-srv/tcp: nfsd: sent only 245760 when sending 1048644 bytes - shutting down socket",
		"rpc-srv/tcp: nfsd: sent 245760 when sending 1048644 bytes - shutting down socket",
	} {
		why, ok := netFSLine(line)
		if !ok || !strings.Contains(why, "svc_tcp_sendto") {
			t.Errorf("%q: %v %q", line, ok, why)
		}
	}
	for _, line := range []string{
		`pr_notice("rpc-srv/tcp: %s: %s %d when sending %d bytes\n"`,
		"svc: socket 000000001234abcd TCP (listen) state change 10",
	} {
		if _, ok := netFSLine(line); ok {
			t.Errorf("%q was read as the short send", line)
		}
	}
}

// arcstat's table (OpenZFS cmd/arcstat.in): the header and its rows are read, the last row's
// size, c and avail (prettynum's 1024-based suffixes, -p's bytes) go to ZFSARC; a sentence
// starting "time" and a table of another program stay what they were.
func TestH19bArcstatTable(t *testing.T) {
	for _, c := range []struct {
		text              string
		size, target, avl int64
	}{
		{"root@truenas[~]# arcstat 1 2\n    time  read  ddread  ddh%  dmread  dmh%  pread  ph%   size      c  avail\n10:12:45   215     180   100      35   100      0    0    49G    49G   3.9G\n10:12:46  1.2K    1.1K    99     104   100      0    0    49G    50G   3.5G\n", 49 << 30, 50 << 30, 3758096384},
		{"# arcstat.py 1 1\n    time  read  miss  miss%  dmis  dm%  pmis  pm%  mmis  mm%  arcsz     c\n21:05:01     0     0      0     0    0     0    0     0    0   7.9G  8.0G\n", 8482560409, 8 << 30, 0},
		{"$ arcstat -p -f time,size,c,avail 1 1\ntime  size  c  avail\n10:12:45  52613349376  53016002560  -1073741824\n", 52613349376, 53016002560, -1073741824},
	} {
		tl, err := Parse(strings.NewReader(c.text), "t.txt", Options{})
		if err != nil {
			t.Fatal(err)
		}
		a := tl.ZFSARC
		if a == nil || a.Form != "arcstat" || a.SizeBytes != c.size || a.TargetBytes != c.target || c.avl != 0 && (!a.HasAvailable || a.MemoryAvailableBytes != c.avl) {
			t.Errorf("%q: ZFSARC %+v, want size %d c %d avail %d", c.text, a, c.size, c.target, c.avl)
		}
	}
	for _, text := range []string{
		"time to check size c again\nthe ARC was fine\n",
		"    time  read  ddread  ddh%  dmread  dmh%  pread  ph%   size      c  avail\n",
		"10:12:45 AM     CPU     %user     %nice   %system\n10:12:46 AM     all      2.00      0.00      1.00\n",
	} {
		tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tl.ZFSARC != nil {
			t.Errorf("%q: ZFSARC %+v", text, tl.ZFSARC)
		}
	}
}
