package artifact

import "testing"

// h21b: the log receivers' buffer lines are read by their fixed parts (rcvbufcapped.go).
func TestH21bLogReceiverForms(t *testing.T) {
	for _, c := range []struct {
		t        string
		req, got int64
		ok       bool
	}{
		{"[WARN ][logstash.inputs.udp ] Unable to set receive_buffer_bytes to desired size. Requested 33554432 but obtained 212992 bytes.", 33554432, 212992, true},
		{"Unable to set receive_buffer_bytes to desired size. Requested 1048576 but obtained 2097152 bytes.", 1048576, 2097152, true},
		{"Unable to set receive_buffer_bytes to desired size. Requested lots", 0, 0, true},
		{"set receive_buffer_bytes => 33554432", 0, 0, false},
	} {
		req, got, ok := logstashRcvbufCapped(c.t)
		if req != c.req || got != c.got || ok != c.ok {
			t.Errorf("%q: %d %d %v", c.t, req, got, ok)
		}
	}
	for t0, want := range map[string]bool{
		"rsyslogd: omfwd: socket 12: error 105 sending via udp: No buffer space available": true,
		"omfwd: socket 3: error 105 sending via udp":                                       true,
		"omfwd: socket 12: error 101 sending via udp: Network is unreachable":              false,
		"the host was sending via udp: No buffer space available":                          false,
	} {
		if omfwdNoBuffer(t0) != want {
			t.Errorf("omfwd %q: want %v", t0, want)
		}
	}
	for t0, want := range map[string]bool{
		"[2026/11/30 09:12:01] [ warn] [input] tail.1 paused (mem buf overlimit)":   true,
		"[input] tail.1 paused (storage buf overlimit)":                             true,
		"[2026/11/30 09:12:03] [ info] [input] syslog.0 resume (mem buf overlimit)": false,
		"the input paused (mem buf overlimit) when I lowered it":                    false,
	} {
		if fluentBitPaused(t0) != want {
			t.Errorf("fluent bit %q: want %v", t0, want)
		}
	}
}
