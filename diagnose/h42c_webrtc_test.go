package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h42c: mediasoup's "worker process died unexpectedly [pid:N, code:null, signal:SIGKILL]"
// (mediasoup node/src/Worker.ts) is a server's notice of a child killed by SIGKILL: oom-kill
// is not checked and names it (SIGKILL is the OOM killer's signal and anyone's kill -9);
// with the kernel's own kill line beside it oom-kill is critical. Janus's "[FATAL] ...
// Memory error!" is its own failed calloc: no oom-kill. quic-go's buffer warning gives the
// host's rmem_max and no finding (healthy 1568-like pastes stay healthy).
func TestH42cWebRTCFindings(t *testing.T) {
	parse := func(text string) Diagnosis {
		tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return Run(tl, nil)
	}
	ms := "2026-11-30T10:12:01.123Z mediasoup:ERROR:Worker worker process died unexpectedly [pid:4123, code:null, signal:SIGKILL]\n"
	d := parse(ms)
	c := checkOf(d, "oom-kill")
	if c == nil || c.Status != StatusNotChecked || !strings.Contains(c.Why, "mediasoup") {
		t.Errorf("mediasoup SIGKILL: oom-kill %+v, want not checked naming mediasoup", c)
	}
	if fs := findings(d, "oom-kill"); len(fs) != 0 {
		t.Errorf("mediasoup SIGKILL alone: oom-kill %+v", fs)
	}
	d = parse("[1234567.890123] Out of memory: Killed process 4123 (mediasoup-worker) total-vm:4728640kB, anon-rss:3582912kB, file-rss:1024kB, shmem-rss:0kB, UID:1001 pgtables:8000kB oom_score_adj:0\n" + ms)
	mustHave(t, d, "oom-kill", Critical)

	d = parse("Janus crashes under load\n\n[FATAL] [plugins/janus_videoroom.c:janus_videoroom_create_session:7012] Memory error!\n")
	if fs := findings(d, "oom-kill"); len(fs) != 0 {
		t.Errorf("Janus Memory error!: oom-kill %+v", fs)
	}

	d = parse("failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.\n")
	if len(d.Findings) != 0 {
		t.Errorf("quic-go's warning alone: findings %+v", d.Findings)
	}
}
