package artifact

import (
	"testing"

	"headroom/model"
)

// h42c: WebRTC media servers' own lines (artifact/unreadwebrtc.go). Wordings from the
// programs' sources: mediasoup node/src/Worker.ts (the child's 'exit' handler:
// "worker process died unexpectedly [pid:%s, code:%s, signal:%s]"), mediasoup-demo
// server.js and the servers built on it (worker.on('died'): "mediasoup worker died,
// exiting in 2 seconds... [pid:%d]"), Janus (janus.c, plugins/*.c, dtls.c, record.c:
// JANUS_LOG(LOG_FATAL, "Memory error!\n") after calloc/g_malloc0; LOG_FATAL prints
// "[FATAL] ", log prefixes "[file:function:line] ").
func TestH42cWebRTCOwnLines(t *testing.T) {
	for _, c := range []struct {
		text, why string
		pid       int64
		signal    string
		sigkill   bool
	}{
		{"2026-11-30T10:12:01.123Z mediasoup:ERROR:Worker worker process died unexpectedly [pid:4123, code:null, signal:SIGKILL]\n", whyMediasoupKilled, 4123, "SIGKILL", true},
		{"mediasoup:ERROR:Worker worker process died unexpectedly [pid:77, code:null, signal:SIGSEGV] +3h\n", whyMediasoupDied, 77, "SIGSEGV", false},
		{"mediasoup:ERROR:Worker worker process died unexpectedly [pid:78, code:1, signal:null]\n", whyMediasoupDied, 78, "null", false},
		{"mediasoup worker died, exiting in 2 seconds... [pid:4123]\n", whyMediasoupAppDie, 4123, "", false},
		{"[FATAL] [plugins/janus_videoroom.c:janus_videoroom_create_session:7012] Memory error!\n", whyJanusMemory, 0, "", false},
		{"[FATAL] Memory error!\n", whyJanusMemory, 0, "", false},
	} {
		tl := ParseString(c.text, "p", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != c.why || tl.Unparsed[0].FirstLine != 1 {
			t.Errorf("%q: unread %+v, want line 1 for %q", c.text, tl.Unparsed, c.why)
		}
		if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 || statedRate(t, c.text, model.RateStatedOOM) != 0 {
			t.Errorf("%q: an OOM read from a media server's own line", c.text)
		}
		if got := len(tl.SigkillNotices) == 1; got != c.sigkill {
			t.Errorf("%q: SIGKILL notices %+v, want %v", c.text, tl.SigkillNotices, c.sigkill)
		}
		var pid int64
		var sig string
		for _, a := range artifactsOf(tl, KindProgramLimit) {
			if m, _ := a.Data.(map[string]any); m["program"] == "mediasoup" {
				pid, _ = m["worker_pid"].(int64)
				sig, _ = m["signal"].(string)
			}
		}
		if pid != c.pid || sig != c.signal {
			t.Errorf("%q: worker_pid %d signal %q, want %d %q", c.text, pid, sig, c.pid, c.signal)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: a question, the docs' explanation, advice, another program's words.
	for _, text := range []string{
		"What does \"worker process died unexpectedly\" mean in mediasoup?\n",
		"The 'died' event is emitted when the worker process died unexpectedly; restart the worker then.\n",
		"If the mediasoup worker died, set a higher ulimit and restart it.\n",
		"Janus logs Memory error! when calloc fails, see the docs.\n",
		"Backend worker process died.\n",
	} {
		tl := ParseString(text, "p", Options{})
		for _, u := range tl.Unparsed {
			switch u.Why {
			case whyMediasoupKilled, whyMediasoupDied, whyMediasoupAppDie, whyJanusMemory:
				t.Errorf("%q: named %+v", text, u)
			}
		}
		if len(tl.SigkillNotices) != 0 {
			t.Errorf("%q: SIGKILL notice %+v", text, tl.SigkillNotices)
		}
	}
}

// h42c: quic-go's "failed to sufficiently increase receive buffer size (was: A kiB, wanted:
// W kiB, got: G kiB)" (quic-go sys_conn.go setReceiveBuffer, sys_conn_buffers.go): G is
// twice this host's net.core.rmem_max (the unprivileged SO_RCVBUF cap, doubled; the forced
// request failed or the warning would not print), read as that setting; W stays quic-go's.
// The send twin gives wmem_max. Printed by LiveKit, Syncthing, kubo, Caddy, cloudflared.
func TestH42cQuicBufferIsRmemMax(t *testing.T) {
	for _, c := range []struct{ text, key, want string }{
		{"2026/11/30 10:12:01 failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.\n", "net.core.rmem_max", "212992"},
		{"failed to sufficiently increase send buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.\n", "net.core.wmem_max", "212992"},
		{"2026-11-30T10:12:01.000Z\tINFO\tfailed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 2048 kiB, got: 1024 kiB).\n", "net.core.rmem_max", "524288"},
	} {
		tl := ParseString(c.text, "p", Options{})
		if got := tl.Host.Sysctls[c.key]; got != c.want {
			t.Errorf("%q: %s = %q, want %q", c.text, c.key, got, c.want)
		}
		checkAccount(t, tl)
	}
	// Not read: the wiki's explanation, advice, a guide's example, a figure the host
	// already states (the pasted sysctl wins), a "got" at or above "wanted".
	for _, text := range []string{
		"quic-go says failed to sufficiently increase receive buffer size when rmem_max is small; set it to 7.5 MB.\n",
		"You may see this warning:\n\nfailed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB).\n",
		"What does failed to sufficiently increase receive buffer size mean?\n",
	} {
		if v, ok := ParseString(text, "p", Options{}).Host.Sysctls["net.core.rmem_max"]; ok {
			t.Errorf("%q: rmem_max %q read", text, v)
		}
	}
	tl := ParseString("$ sysctl net.core.rmem_max\nnet.core.rmem_max = 7500000\nfailed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB).\n", "p", Options{})
	if got := tl.Host.Sysctls["net.core.rmem_max"]; got != "7500000" {
		t.Errorf("a stated rmem_max overridden: %q", got)
	}
}

// h42c: known misreadings. Corpus 3917: the shell's "Killed" quoted inside a parenthetical
// aside whose "if" conditions only the aside: the kill by the OOM killer is stated. Corpus
// 3859: bash xtrace of `MEM=$(free | grep '^Mem' | awk '{print $2}')` is free's Mem total
// in KiB (procps free(1)), the host's memory.
func TestH42cKnownMisreadings(t *testing.T) {
	for _, text := range []string{
		"Rambox process is getting killed (if I run it on the command line, I can see the \"Killed\" log displayed on stdout) by OOM Killer.\n",
		"Rambox process is getting killed (if I run it) by OOM Killer.\n",
	} {
		if statedRate(t, text, model.RateStatedOOM) == 0 {
			t.Errorf("%q: the kill by the OOM killer not read", text)
		}
	}
	for _, text := range []string{
		"If the process is getting killed by OOM Killer, add swap.\n",
		"The process would be killed (see the log) by OOM Killer if it grew.\n",
	} {
		if statedRate(t, text, model.RateStatedOOM) != 0 {
			t.Errorf("%q: a possibility read as a kill", text)
		}
	}
	log := "2019-08-05 09:01:51,158: DEBUG - + final_path=/var/www/mastodon\n" +
		"2019-08-05 09:01:51,159: DEBUG - ++ awk '{print $2}'\n" +
		"2019-08-05 09:01:51,159: DEBUG - ++ grep '^Mem'\n" +
		"2019-08-05 09:01:51,159: DEBUG - ++ free\n" +
		"2019-08-05 09:01:51,159: DEBUG - + MEM=1020272\n" +
		"2019-08-05 09:01:51,160: DEBUG - ++ awk '{print $2}'\n" +
		"2019-08-05 09:01:51,160: DEBUG - ++ grep '^Swap'\n" +
		"2019-08-05 09:01:51,160: DEBUG - ++ free\n" +
		"2019-08-05 09:01:51,160: DEBUG - + SWAP=0\n"
	if got := ParseString(log, "p", Options{}).Host.MemTotalKB; got != 1020272 {
		t.Errorf("xtrace of free: MemTotalKB %d, want 1020272", got)
	}
	// (A bare xtrace with no log prefix never reaches the prose: not read, left for later.)
	bare := "DEBUG - ++ free -m\nDEBUG - ++ grep Mem\nDEBUG - ++ awk '{print $2}'\nDEBUG - + MEM=3936\n"
	if got := ParseString(bare, "p", Options{}).Host.MemTotalKB; got != 3936*1024 {
		t.Errorf("xtrace of free -m: MemTotalKB %d, want %d", got, 3936*1024)
	}
	for _, text := range []string{
		"DEBUG - ++ free\nDEBUG - ++ grep '^Swap'\nDEBUG - ++ awk '{print $2}'\nDEBUG - + SWAP=2097148\n",  // the Swap row
		"DEBUG - ++ free\nDEBUG - ++ grep '^Mem'\nDEBUG - ++ awk '{print $4}'\nDEBUG - + FREE=120000\n",    // another column
		"DEBUG - ++ free -h\nDEBUG - ++ grep '^Mem'\nDEBUG - ++ awk '{print $2}'\nDEBUG - + MEM=1020272\n", // rounded cells
		"DEBUG - ++ cat /proc/meminfo\nDEBUG - ++ awk '{print $2}'\nDEBUG - + MEM=1020272\n",               // no free
		"Run MEM=$(free | grep '^Mem' | awk '{print $2}') to get 1020272.\n",                               // a command in prose
	} {
		if got := ParseString(text, "p", Options{}).Host.MemTotalKB; got == 1020272 || got == 2097148 || got == 120000 {
			t.Errorf("%q: MemTotalKB %d read", text, got)
		}
	}
}
