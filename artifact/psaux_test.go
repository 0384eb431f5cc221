package artifact

import "testing"

// ps aux's table (corpus case 1591): the row's KiB figures read as printed, the host's
// MemTotal implied by RSS and %MEM; the command cut by ps kept.
func TestPsAuxTable(t *testing.T) {
	text := "```\nUSER        PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
		"ats        3443  147 97.5 412863996 384980056 ? SLl  Jan03 47199:42 /opt/trafficserver/bin/traffic_server...\n" +
		"root         1  0.0  0.0 191036  4100 ?        Ss   Jan03   2:10 /usr/lib/systemd/systemd --switched-root\n```\n"
	tl := ParseString(text, "t", Options{})
	var pt *PsTasks
	for _, a := range tl.Artifacts {
		if a.Kind == KindPsTasks {
			pt = a.Data.(*PsTasks)
		}
	}
	if pt == nil || len(pt.Rows) != 2 {
		t.Fatalf("ps table %+v", pt)
	}
	r := pt.Rows[0]
	if r.PID != 3443 || r.RSSKB != 384980056 || r.VSZKB != 412863996 || r.MemPct != 97.5 || r.Command != "/opt/trafficserver/bin/traffic_server..." {
		t.Errorf("row %+v", r)
	}
	if pt.MemTotalKBFromRSS != 394851339 {
		t.Errorf("MemTotal from RSS %d", pt.MemTotalKBFromRSS)
	}
	if pt.Rows[1].Command != "/usr/lib/systemd/systemd --switched-root" {
		t.Errorf("command %q", pt.Rows[1].Command)
	}
	// No CPU rate from ps's lifetime %CPU, no memory sample.
	if len(tl.Samples) != 0 {
		t.Errorf("samples from ps: %+v", tl.Samples)
	}
}

// Not ps aux: another header that starts with USER (who, w), a sentence naming the columns,
// a header without rows.
func TestPsAuxCounterCases(t *testing.T) {
	for _, text := range []string{
		"USER     TTY      FROM             LOGIN@   IDLE   JCPU   PCPU WHAT\nroot     pts/0    10.0.0.1         09:12    1.00s  0.05s  0.00s w\n",
		"USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND are the columns ps aux prints\n",
		"USER        PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n\nthe rows are below\n",
		"USER        PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\nats 3443 147 197.5 412863996 384980056 ? SLl Jan03 47199:42 x\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindPsTasks {
				t.Errorf("%q: read as ps aux: %+v", text, a.Data)
			}
		}
	}
}
