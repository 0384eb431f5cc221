package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Round 12's g63 (brokers), fix17b: sysctl settings listed "key value" without '=', EMQX's
// own connection lines, and an OOM kill stated in the habitual "will" under an issue form's
// observed-behaviour heading.

func f17bSetting(tl *model.Timeline, key string) (model.SettingMention, bool) {
	for _, m := range tl.Settings {
		if m.Key == key {
			return m, true
		}
	}
	return model.SettingMention{}, false
}

// A mail reply's list of settings, double-spaced, '=' dropped, two keys with an underscore
// turned into a space: each a sysctl.conf line with its values.
func TestFix17bBareSysctlList(t *testing.T) {
	text := "Here are my settings for a machine with 8GB RAM:\n\n" +
		"net.core.rmem_default 536870912\n\n" +
		"net.core.netdev_max backlog 100000\n\n" +
		"net.ipv4.tcp_mem 786432 1048576 26777216\n\n" +
		"vm.min_free kbytes 65536\n\n" +
		"net.core.somaxconn\t100000\n\n" +
		"Which version of node are you running?\n"
	tl := ParseString(text, "t", Options{})
	for key, want := range map[string]string{
		"net.core.rmem_default":       "536870912",
		"net.core.netdev_max_backlog": "100000",
		"net.ipv4.tcp_mem":            "786432 1048576 26777216",
		"vm.min_free_kbytes":          "65536",
		"net.core.somaxconn":          "100000",
	} {
		m, ok := f17bSetting(tl, key)
		if !ok || m.Value != want || m.Form != "sysctl.conf" {
			t.Errorf("%s: %+v (found %v), want %q as a sysctl.conf line", key, m, ok, want)
		}
	}
	if _, ok := f17bSetting(tl, "net.core.netdev_max"); ok {
		t.Error("the key's first half read as a key of its own")
	}
	checkAccount(t, tl)

	// Counter-cases: a sentence with a key and a number, a value with a unit word, a key the
	// kernel does not have (whole or joined), a host name, a word as the value, a key with
	// no value: none is a listed setting with a value.
	for _, s := range []string{
		"net.core.somaxconn 1024 is too low for this load",
		"net.ipv4.tcp_mem 786432 1048576 26777216 pages",
		"net.core.foo_bar 12",
		"net.core.netdev_max bogus 100000",
		"vm.example.com 10",
		"net.ipv4.tcp_congestion_control bbr",
		"net.core.netdev_max backlog",
		"net.ipv4.tcp_rmem 4096 87380 16777216 33554432",
	} {
		if _, _, _, ok := bareSysctl(s); ok {
			t.Errorf("%q read as a key-value setting", s)
		}
		tl := ParseString(s+"\n", "t", Options{})
		for _, m := range tl.Settings {
			if m.Form == "sysctl.conf" {
				t.Errorf("%q: %+v read as a sysctl.conf line", s, m)
			}
		}
	}
	// The '=' form is still trySysctl's, with the same result.
	tl = ParseString("net.ipv4.tcp_mem = 786432 1048576 26777216\n", "t", Options{})
	if m, ok := f17bSetting(tl, "net.ipv4.tcp_mem"); !ok || m.Value != "786432 1048576 26777216" || m.Form != "sysctl.conf" {
		t.Errorf("sysctl.conf line: %+v", m)
	}
}

// EMQX's congestion alarm (bare, as an alarm list shows it, and in its log record with the
// activated/deactivated pair) and its force_shutdown of a connection process are named as
// the broker's own, their figures kept as the program's, never the host's settings, an
// OOM or a kernel line.
func TestFix17bEMQXConnectionLines(t *testing.T) {
	alarm := `connection congested: #{buffer => 4096,clientid => <<"dev-42">>,conn_state => connected,high_msgq_watermark => 8192,high_watermark => 1048576,memory => 21840,message_queue_len => 0,peername => <<"203.0.113.7:40211">>,pid => <<"<0.812.0>">>,proto_name => <<"MQTT">>,proto_ver => 4,recbuf => 87380,recv_cnt => 12,recv_oct => 340,send_cnt => 77,send_oct => 9120,send_pend => 17,sndbuf => 23040,sockname => <<"10.0.0.5:1883">>,socktype => tcp,username => undefined}`
	for _, c := range []struct{ text, word string }{
		{alarm + "\n", "congestion alarm"},
		{"2026-11-30T02:40:01.100000+00:00 [warning] msg: alarm_is_activated, mfa: emqx_alarm:do_actions/3(418), message: <<\"" + strings.ReplaceAll(alarm, `"`, `\"`) + "\">>, name: <<\"conn_congestion/dev-42/undefined\">>\n", "congestion alarm"},
		{"2026-11-30T02:40:01.300000+00:00 [warning] msg: alarm_is_deactivated, mfa: emqx_alarm:do_actions/3(424), name: <<\"conn_congestion/dev-42/undefined\">>\n", "congestion alarm"},
		{"2026-11-30T02:40:02.000000+00:00 [error] supervisor: {esockd_connection_sup,<0.900.0>}, errorContext: connection_shutdown, reason: #{max => 1000,reason => mailbox_overflow,value => 1500}, offender: [{pid,<0.900.0>},{name,connection}]\n", "force_shutdown"},
		{"2026-11-30T02:40:02.000000+00:00 [warning] clientid: sub-1, msg: check_oom_shutdown, mfa: emqx_connection:check_oom/3(1137), shutdown: #{max => 1000,reason => mailbox_overflow,value => 1500}\n", "force_shutdown"},
		{"2026-11-30T02:40:03.000000+00:00 [error] supervisor: {esockd_connection_sup,<0.901.0>}, errorContext: connection_shutdown, reason: {shutdown,tcp_closed}, offender: [{pid,<0.901.0>}]\n", "esockd's connection supervisor"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || NothingRead(tl) && len(tl.Unparsed) == 0 || statedOOM(tl) || len(f15Kills(tl)) != 0 || len(tl.Settings) != 0 {
			t.Errorf("%q: unparsed %+v stated %v settings %+v: want named (%s), nothing else", c.text, tl.Unparsed, statedOOM(tl), tl.Settings, c.word)
		}
		checkAccount(t, tl)
	}
	tl := ParseString(alarm+"\n", "t", Options{})
	var figs map[string]any
	for _, a := range tl.Artifacts {
		if a.Kind == KindProgramLimit {
			figs, _ = a.Data.(map[string]any)
		}
	}
	if figs == nil || figs["program"] != "emqx" || figs["sndbuf"] != int64(23040) || figs["send_pend"] != int64(17) || figs["recbuf"] != int64(87380) {
		t.Errorf("figures %+v: want sndbuf, recbuf, send_pend as emqx's", figs)
	}
	// A figure the logger cut ("recv_oct => 87\"...>>") is no figure.
	tl = ParseString(`2026-11-30T02:40:01.100000+00:00 [warning] msg: alarm_is_activated, message: <<"connection congested: #{buffer => 4096,recbuf => 65536,recv_oct => 87"...>>, name: <<"conn_congestion/x/undefined">>`+"\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if m, ok := a.Data.(map[string]any); ok && a.Kind == KindProgramLimit {
			if _, cut := m["recv_oct"]; cut || m["recbuf"] != int64(65536) {
				t.Errorf("figures %+v: want recbuf, not the cut recv_oct", m)
			}
		}
	}
	// Counter-cases: another program's "Connection congested", the source's format string,
	// sentences naming the alarm or the reasons, a guide naming check_oom_shutdown.
	for _, s := range []string{
		"Connection congested: dropping video to keep up (backlog 1.4 s).",
		`Message = io_lib:format("connection congested: ~0p", [Details]),`,
		"The connection congested alarm fires when send_pend is above zero.",
		"message_queue_too_long means the connection process's mailbox is full",
		"Logs may show warnings like check_oom_shutdown with reason mailbox_overflow.",
	} {
		if why, ok := brokerConnWhy(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

// "will" under an issue form's observed-behaviour heading is habitual: the kill it states
// happened. A condition or a possibility there, or the sentence under another heading,
// states none.
func TestFix17bObservedHabitualWill(t *testing.T) {
	const s = "Server will die with a range of symptoms, mostly silently OOM killed, sometimes throwing warnings first.\n"
	for _, h := range []string{"### Observed behavior", "## Actual Behaviour", "### Current Behavior", "### What happened?"} {
		tl := ParseString("# Memory growth at high speed\n\n"+h+"\n\n"+s+"\n### Expected behavior\n\nSelf limits memory growth.\n", "t", Options{})
		if !statedOOM(tl) {
			t.Errorf("%s: the kill not stated", h)
		}
	}
	for _, text := range []string{
		"### Expected behavior\n\n" + s,
		"### Steps to reproduce\n\n" + s,
		s,
		"### Observed behavior\n\nIf the consumers pull faster, the server will be OOM killed.\n",
		"### Observed behavior\n\nThe server may get OOM killed when the consumers pull fast.\n",
		"### Observed behavior\n\nA server will crash (out of memory) if using these flags.\n",
		"### Observed behavior\n\nThe server will not be OOM killed, it just slows down.\n",
	} {
		if tl := ParseString("# Memory growth at high speed\n\n"+text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: stated an OOM", text)
		}
	}
}
