package model

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
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
		eager := LogRecord{UptimeUsec: 1234078260, Priority: -1, Message: msg, Source: c.want}
		if got := lazy.Where(); got != c.want || lazy.Source != "" || lazy.Line() != c.no {
			t.Errorf("SetLine(%d, %q): Where %q Source %q Line %d, want %q", c.no, c.stamp, got, lazy.Source, lazy.Line(), c.want)
		}
		if eager.Where() != c.want || eager.Line() != 0 {
			t.Errorf("a record with its Source: Where %q Line %d", eager.Where(), eager.Line())
		}
		for _, escape := range []bool{true, false} {
			enc := func(v any) string {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(escape)
				e.SetIndent("", " ")
				if err := e.Encode(v); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			// The eager record as the encoder writes a struct without MarshalJSON.
			want := enc(struct {
				Time       time.Time `json:"time,omitzero"`
				UptimeUsec int64     `json:"uptime_usec,omitempty"`
				Priority   int       `json:"priority"`
				Message    string    `json:"message"`
				Source     string    `json:"source,omitempty"`
			}{eager.Time, eager.UptimeUsec, eager.Priority, eager.Message, eager.Source})
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
