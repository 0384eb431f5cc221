package model

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// A text's record keeps its line and stamp and formats its source when asked: it must read
// and encode exactly as the record whose source was formatted while reading, with either
// HTML escaping of the encoder that calls MarshalJSON.
func TestLogRecordWhere(t *testing.T) {
	msg := "e1000: eth0: NIC Link is Up <1000> Mbps & \u2028 \"full\""
	cases := []struct {
		no    int
		stamp string
		want  string
	}{
		{14, "", "line 14"},
		{899465, "Jan  1 00:00:02", "line 899465 (Jan  1 00:00:02)"},
	}
	for _, c := range cases {
		var lazy LogRecord
		lazy.UptimeUsec, lazy.Priority, lazy.Message = 1234078260, -1, msg
		lazy.SetLine(c.no, c.stamp)
		eager := LogRecord{UptimeUsec: 1234078260, Priority: -1, Message: msg}.WithSource(c.want)
		if got := lazy.Where(); got != c.want || lazy.Source() != "" || lazy.Line() != c.no {
			t.Errorf("SetLine(%d, %q): Where %q Source %q Line %d, want %q", c.no, c.stamp, got, lazy.Source(), lazy.Line(), c.want)
		}
		if eager.Where() != c.want || eager.Line() != 0 {
			t.Errorf("a record with its Source: Where %q Line %d", eager.Where(), eager.Line())
		}
		for _, escape := range []bool{true, false} {
			enc := func(v any) string { return encodeIndented(t, v, escape) }
			// The eager record as the encoder writes a struct without MarshalJSON.
			want := enc(struct {
				Time       time.Time `json:"time,omitzero"`
				UptimeUsec int64     `json:"uptime_usec,omitempty"`
				Priority   int       `json:"priority"`
				Message    string    `json:"message"`
				Source     string    `json:"source,omitempty"`
			}{eager.Time(), eager.UptimeUsec, eager.Priority, eager.Message, eager.Source()})
			if got := enc([]LogRecord{lazy}); got != "[\n "+indentMore(want)+"]\n" {
				t.Errorf("escape %v: lazy record encodes as\n%s\nwant\n%s", escape, got, want)
			}
			if got, want2 := enc(lazy), enc(eager); got != want2 || got != want {
				t.Errorf("escape %v: lazy %s eager %s want %s", escape, got, want2, want)
			}
		}
	}
	var back LogRecord
	if err := json.Unmarshal([]byte(`{"priority":4,"message":"m","source":"/dev/kmsg seq 9"}`), &back); err != nil || back.Where() != "/dev/kmsg seq 9" {
		t.Errorf("decoded: %+v %v", back, err)
	}
}

// indentMore indents an encoded object one level, as inside an array.
func indentMore(s string) string {
	s = s[:len(s)-1] // its newline
	return string(bytes.ReplaceAll([]byte(s), []byte("\n"), []byte("\n "))) + "\n"
}

// A text's usual record keeps its stamp without a string of its own or anything aside, and
// reads as the record that keeps it aside; records are values.
func TestLogRecordLayout(t *testing.T) {
	if n := unsafe.Sizeof(LogRecord{}); unsafe.Sizeof(uintptr(0)) == 8 && n != 56 {
		t.Errorf("a LogRecord is %d bytes, want 56 (issue 33: the log's memory)", n)
	}
	line := "Jan  1 00:00:02 cmsstor26 kernel: [ 1234.078260] e1000: eth0: NIC Link is Up"
	stamp, msg := line[:15], line[50:]
	var in LogRecord
	in.Message = msg
	in.SetLine(899465, stamp)
	if in.extra != nil || in.stampLen == 0 {
		t.Errorf("a short stamp was kept aside: %+v", in)
	}
	// The message changed afterwards (a wrapped piece joined to it) leaves the stamp.
	in.Message = msg + " 1000 Mbps Full Duplex"
	if in.Where() != "line 899465 (Jan  1 00:00:02)" || in.Line() != 899465 {
		t.Errorf("Where %q, Line %d", in.Where(), in.Line())
	}
	long := strings.Repeat("x", 300)
	var apart LogRecord
	apart.SetLine(7, long)
	if apart.Where() != "line 7 ("+long+")" {
		t.Errorf("a 300-byte stamp: %q", apart.Where())
	}
	a, _ := json.Marshal(in)
	// Setting one copy's clock or source leaves the others as they were.
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	x := LogRecord{Message: "m"}.WithTime(at).WithSource("/dev/kmsg seq 1")
	y := x
	y.SetTime(at.Add(time.Hour))
	y.SetSource("/dev/kmsg seq 2")
	if !x.Time().Equal(at) || x.Source() != "/dev/kmsg seq 1" || !y.Time().Equal(at.Add(time.Hour)) || y.Where() != "/dev/kmsg seq 2" {
		t.Errorf("copies share: x %v %q, y %v %q", x.Time(), x.Source(), y.Time(), y.Where())
	}
	// A line number past int32.
	if no := 1; unsafe.Sizeof(no) == 8 {
		no <<= 33
		var big LogRecord
		big.SetLine(no, "")
		if big.Line() != no || big.Where() != "line 8589934592" {
			t.Errorf("line 1<<33: %d %q", big.Line(), big.Where())
		}
	}
	var back LogRecord
	if err := json.Unmarshal(a, &back); err != nil || back.Where() != in.Where() || back.Line() != 0 || back.Message != in.Message {
		t.Errorf("decoded %+v (%v)", back, err)
	}
}
