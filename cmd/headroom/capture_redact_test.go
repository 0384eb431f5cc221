package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/source"
)

// capture --redact: an address, a host name, a user name, an interface name and a task
// name planted in a real capture do not survive in the redacted txtar, and doctor finds
// the same in both.
func TestCaptureRedact(t *testing.T) {
	b, err := os.ReadFile("../../testdata/captures/vm-6.18.txtar")
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(b)
	secrets := []string{"ticket-host-7", "10.20.30.40", "10.20.30.41", "192.168.77.5", "fd12:3456:789a::77", "alice", "secretd", "52:54:00:ab:cd:ef", "eth0"}
	for i := range a.Files {
		f := &a.Files[i]
		switch f.Name {
		case "proc/sys/kernel/hostname":
			f.Data = []byte("ticket-host-7\n")
		case "dev/kmsg":
			f.Data = append(f.Data, []byte(
				"4,90000,1000000,-;IPv4: martian source 10.20.30.40 from 10.20.30.41, on dev eth0\n"+
					"4,90001,1000001,-;ll header: 00000000: ff ff ff ff ff ff 52:54:00:ab:cd:ef 08 06\n"+
					"5,90002,1000002,-;audit: type=1101 audit(1.0:1): pid=1 uid=1000 acct=\"alice\" hostname=ticket-host-7 addr=fd12:3456:789a::77 res=success\n"+
					"4,90003,1000003,-;secretd: page allocation failure: order:2, mode:0x104020(GFP_ATOMIC|__GFP_COMP), nodemask=(null)\n"+
					"4,90004,1000004,-;CPU: 1 PID: 4242 Comm: secretd Not tainted 6.18.44-fc-v669 #1\n")...)
		case "headroom/sockets.json":
			f.Data = bytes.Replace(f.Data, []byte(`"local":"0.0.0.0:2024"`), []byte(`"local":"192.168.77.5:2024"`), 1)
		}
	}
	planted := txtar.Format(a)
	for _, s := range secrets {
		if !bytes.Contains(planted, []byte(s)) {
			t.Fatalf("%q not planted", s)
		}
	}
	red := source.Redact(a, source.RedactOptions{Users: source.PasswdUsers([]byte("root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n"))})
	redacted := txtar.Format(a)
	for _, s := range secrets {
		if bytes.Contains(redacted, []byte(s)) {
			t.Errorf("%q survives redaction", s)
		}
	}
	if red.Interfaces["eth0"] == "" || !bytes.Contains(redacted, []byte("-- sys/class/net/"+red.Interfaces["eth0"]+"/mtu --")) ||
		!bytes.Contains(redacted, []byte("on dev "+red.Interfaces["eth0"])) {
		t.Errorf("eth0 not replaced consistently (%v)", red.Interfaces)
	}
	if !bytes.Contains(redacted, []byte("-- proc/sys/vm/min_free_kbytes --")) {
		t.Error("the file names of sysctls changed (host name \"vm\"?)")
	}
	dir := t.TempDir()
	findings := func(name string, data []byte) []string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run([]string{"doctor", "--from", p, "--format", "json"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code == exitFailure {
			t.Fatalf("doctor --from %s: exit 3: %s", name, errb.String())
		}
		var doc struct {
			Findings []struct{ ID, Severity string }
			Checks   []struct{ ID, Status string }
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, f := range doc.Findings {
			ids = append(ids, f.ID+"/"+f.Severity)
		}
		for _, c := range doc.Checks {
			ids = append(ids, "check "+c.ID+"/"+c.Status)
		}
		slices.Sort(ids)
		return ids
	}
	before, after := findings("planted.txtar", planted), findings("redacted.txtar", redacted)
	if !slices.Equal(before, after) {
		t.Errorf("redaction changed the diagnosis:\nbefore %v\nafter  %v", before, after)
	}
	if len(before) == 0 {
		t.Error("no findings or checks at all: the comparison proves nothing")
	}
	t.Logf("%d findings/checks the same; replaced %d addresses, %d interfaces, %d users, %d tasks", len(before), len(red.Addresses), len(red.Interfaces), len(red.Users), len(red.Commands))
}
