package main

import (
	"bytes"
	"strings"
	"testing"
)

// A FreeBSD root session (netstat -sp tcp, netstat -Lan, kern.ipc.somaxconn) exited 3 with
// "nothing is evidence headroom reads" (corpus 918): it is evidence, of another system. The
// report names the system and says no Linux rule applies; prose that only names FreeBSD, with
// no BSD-only output or setting, is still evidence-free text (exit 3).
func TestDoctorOtherOSNamed(t *testing.T) {
	bsd := "I have a FreeBSD nginx server with listen queue overflows:\n\n" +
		"[root@svr ~]# netstat -sp tcp | fgrep listen\n80361931 listen queue overflows\n" +
		"[root@svr ~]# sysctl kern.ipc.somaxconn\nkern.ipc.somaxconn: 12288\n"
	var out, errb bytes.Buffer
	code := run([]string{"doctor", "-"}, IO{Stdin: strings.NewReader(bsd), Stdout: &out, Stderr: &errb})
	if code != exitOK || !strings.Contains(out.String(), "from FreeBSD") || !strings.Contains(out.String(), "not Linux") {
		t.Errorf("exit %d, want %d naming FreeBSD:\n%s%s", code, exitOK, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	prose := "We moved the web servers from FreeBSD to Debian last year and they have been fine.\n"
	code = run([]string{"doctor", "-"}, IO{Stdin: strings.NewReader(prose), Stdout: &out, Stderr: &errb})
	if code == exitOK || strings.Contains(out.String()+errb.String(), "not Linux") {
		t.Errorf("prose naming FreeBSD: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
