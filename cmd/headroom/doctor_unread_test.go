package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29 item 4: exit 3 ("nothing ... is evidence") is for empty, binary and
// evidence-free text; a paste of output headroom cannot read yet runs and lists the lines.
func TestDoctorUnreadOutputRunsProseExits3(t *testing.T) {
	write := tempWriter(t)
	table := write("table.txt", "port      hits     misses   evicted\n  80  620315792          0         11\n 443  692783857          0         22\n")
	prose := write("prose.txt", "My server is slow since Monday.\nAny idea what to look at?\n")

	var out, errb bytes.Buffer
	code := runDoctor(context.Background(), []string{table}, IO{Stdout: &out, Stderr: &errb})
	if code == exitFailure {
		t.Fatalf("unread output exited %d (stderr %q)", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "nothing could be checked") || !strings.Contains(s, "could not read lines 2-3") {
		t.Errorf("report:\n%s", s)
	}
	out.Reset()
	errb.Reset()
	if code := runDoctor(context.Background(), []string{prose}, IO{Stdout: &out, Stderr: &errb}); code != exitFailure {
		t.Errorf("prose exited %d, want %d", code, exitFailure)
	}
}

// The output of a domain command no reader takes (corpus 820: `cat` of a NIC's qos
// buffer_size, double-spaced by a web page) runs, lists the lines with the command, and
// gains no finding; texts without such a command still exit 3 (corpus 881's k6 log, prose
// with numbers, a transcript of other commands).
func TestDoctorUnreadCommandOutput(t *testing.T) {
	write := tempWriter(t)
	qos := write("qos.txt", "    1. To query the Receive Buffer size, run the following command:\n\n"+
		"    # cat /sys/class/net/eth1/qos/buffer_size\n\n"+
		"    Port buffer size = 262016\n\n    Spare buffer size = 128\n\n    Buffer Size\n\n"+
		"    0 130944\n\n    1 130944\n\n    2 0\n\n"+
		"    Note: To understand which priority belongs to which buffer, see prio2buffer parameter below.\n")
	var out, errb bytes.Buffer
	code := runDoctor(context.Background(), []string{"--format", "json", qos}, IO{Stdout: &out, Stderr: &errb})
	if code != 0 {
		t.Fatalf("exit %d (stderr %q), want 0", code, errb.String())
	}
	var rep struct {
		Findings []struct{ ID, Severity string } `json:"findings"`
		Unparsed []struct {
			FirstLine int    `json:"first_line"`
			LastLine  int    `json:"last_line"`
			Why       string `json:"why"`
		} `json:"unparsed"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	// The paste is double-spaced (a blank line between every two lines): it is read with its
	// blank lines taken out (undoubleSpace, forms10b), so its lines are counted as read — the
	// output's lines 5-15 as pasted are lines 3-8 (docs/accuracy.md, "Forms of round 10
	// (forms10b: layouts)": the same trade as a quoted-printable mail's decoding).
	if len(rep.Unparsed) != 1 || rep.Unparsed[0].FirstLine != 3 || rep.Unparsed[0].LastLine != 8 ||
		rep.Unparsed[0].Why != "output of `cat /sys/class/net/eth1/qos/buffer_size`: no reader for it" {
		t.Errorf("unparsed %+v", rep.Unparsed)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("findings %+v from unread output", rep.Findings)
	}
	// k6's "socket: too many open files" is the errno EMFILE, a descriptor limit, named as
	// unread (h12b, unreaderrno.go): the text runs, with no finding.
	out.Reset()
	errb.Reset()
	k6 := write("k6.txt", "WARN[0000] Request Failed ... socket: too many open files\n\n## Environment\n\n"+
		"- k6 version: `k6 v0.31.1 (2021-03-17T13:23:23+0000/e9d8349, go1.15.8, linux/amd64)`\n- OS and version: Fedora-34\n")
	if code := runDoctor(context.Background(), []string{k6}, IO{Stdout: &out, Stderr: &errb}); code != 0 ||
		!strings.Contains(out.String(), "EMFILE") || !strings.Contains(out.String(), "Findings\n  none") {
		t.Errorf("k6.txt exited %d, want 0 with EMFILE named and no finding (stdout %q)", code, out.String())
	}
	for name, text := range map[string]string{
		"numbers.txt": "Our team of 12 moved 3 offices in 2021, and 250 people now work on 4 floors.\nThe meeting is at 10:30 in room 204.\n",
		"shell.txt":   "$ ls -l /var/log\ntotal 2048\n-rw-r----- 1 root adm 1048576 Nov 29 14:48 syslog\n$ df -h /\n/dev/sda1        40G   21G   17G  56% /\n",
	} {
		out.Reset()
		errb.Reset()
		if code := runDoctor(context.Background(), []string{write(name, text)}, IO{Stdout: &out, Stderr: &errb}); code != exitFailure {
			t.Errorf("%s exited %d, want %d (stdout %q)", name, code, exitFailure, out.String())
		}
	}
}

// tempWriter writes texts into a test's temporary directory and returns their paths.
func tempWriter(t *testing.T) func(name, text string) string {
	dir := t.TempDir()
	return func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}
