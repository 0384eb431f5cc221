package model

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A packed log reads back the records a []LogRecord holds, field for field, and encodes as
// it: the records that fit are packed, the others (a message or stamp outside the text, a
// clock time, a line number or priority past the packed fields) are kept whole, in order.
func TestPackedLogIsRecords(t *testing.T) {
	text := "Jan  1 00:00:02 h kernel: [    1.000000] first <message> & more\n" +
		"Jan  1 00:00:03 h kernel: second\n" + strings.Repeat("x", 70000) + " far\n"
	at := func(s string) string { i := strings.Index(text, s); return text[i : i+len(s)] }
	elsewhere := strings.Clone("not in the text")
	stamp1, stamp2 := at("Jan  1 00:00:02"), at("Jan  1 00:00:03")
	type line struct {
		msg      string
		uptime   int64
		prio, no int
		stamp    string
	}
	lines := []line{
		{at("first <message> & more"), 1_000_000, -1, 1, stamp1},
		{at("second"), -1, 4, 2, stamp2},
		{at("second"), -1, 4, 2, ""},                                    // no stamp
		{elsewhere, -1, -1, 3, stamp2},                                  // message outside the text
		{at("far"), -1, -1, 4, stamp2},                                  // stamp too far back
		{at("first"), -1, 300, 5, ""},                                   // priority past int8
		{at("first"), -1, -1, math.MaxInt32 + 1, stamp1},                // line past int32
		{at("first"), -1, -1, 6, strings.Clone(stamp1)},                 // stamp outside the text
		{at("first"), -1, -1, 0, ""},                                    // no line
		{"", -1, -1, 7, stamp1},                                         // empty message
		{at("second"), 5, 2, 8, at("Jan  1 00:00:03 h kernel: second")}, // stamp over the message
	}
	var want []LogRecord
	var got, appended Log
	got.SetText(text, 2)
	appended.SetText(text, 0)
	for _, l := range lines {
		r := LogRecord{Message: l.msg, UptimeUsec: l.uptime, Priority: l.prio}
		r.SetLine(l.no, l.stamp)
		want = append(want, r)
		got.AppendLine(l.msg, l.uptime, l.prio, l.no, l.stamp)
		appended.Append(r)
	}
	clock := LogRecord{Message: at("second")}.WithTime(time.Date(2026, 11, 29, 1, 2, 3, 0, time.UTC))
	clock.SetLine(9, "")
	want = append(want, clock)
	got.Append(clock)
	appended.Append(clock)
	if got.Len() != len(want) || appended.Len() != len(want) {
		t.Fatalf("%d and %d records, want %d", got.Len(), appended.Len(), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got.At(i), want[i]) || !reflect.DeepEqual(appended.At(i), want[i]) {
			t.Errorf("record %d: %+v and %+v, want %+v", i, got.At(i), appended.At(i), want[i])
		}
		if got.At(i).Where() != want[i].Where() {
			t.Errorf("record %d: where %q, want %q", i, got.At(i).Where(), want[i].Where())
		}
	}
	if n := len(got.packed) - len(got.recs); n != 4 {
		t.Errorf("%d records packed, want 4 (%d kept whole)", n, len(got.recs))
	}
	for _, html := range []bool{true, false} {
		enc := func(v any) string { return encodeIndented(t, v, html) }
		w := enc(struct {
			Log []LogRecord `json:"log,omitempty"`
		}{want})
		if g := enc(struct {
			Log Log `json:"log,omitzero"`
		}{got}); g != w {
			t.Errorf("escape HTML %v: JSON\n%s\nwant\n%s", html, g, w)
		}
	}
	if b, _ := json.Marshal(struct {
		Log Log `json:"log,omitzero"`
	}{}); string(b) != "{}" {
		t.Errorf("an empty log encodes as %s", b)
	}
	var back Log
	b, _ := json.Marshal(got)
	if err := json.Unmarshal(b, &back); err != nil || back.Len() != len(want) || back.At(0).Where() != want[0].Where() {
		t.Errorf("decoded %v, %v", back, err)
	}

	// Changes: a message set, a record replaced, the log cut and sorted by line.
	got.SetMessage(0, elsewhere)
	got.SetMessage(1, at("first"))
	want[0].Message, want[1].Message = elsewhere, at("first")
	for i := range 2 {
		if !reflect.DeepEqual(got.At(i), want[i]) {
			t.Errorf("record %d after SetMessage: %+v, want %+v", i, got.At(i), want[i])
		}
	}
	got.Truncate(3)
	got.Set(0, want[2])
	got.SortByLine()
	if got.Len() != 3 || got.At(0).Line() != 2 || got.At(1).Line() != 2 || got.At(2).Line() != 2 ||
		got.At(0).Message != want[2].Message || got.At(1).Message != at("first") {
		t.Errorf("after Truncate, Set, SortByLine: %v", got)
	}
	if got.Records()[2].Message != want[2].Message {
		t.Errorf("records %v", got.Records())
	}
}

// A log of records read elsewhere keeps the slice it was given, and copies share storage
// as slices do.
func TestLogOfRecords(t *testing.T) {
	recs := []LogRecord{{Message: "a"}, {Message: "b"}}
	l := NewLog(recs)
	if &l.Records()[0] != &recs[0] || l.Len() != 2 || l.At(1).Message != "b" {
		t.Fatalf("NewLog: %v", l)
	}
	c := l
	c.Append(LogRecord{Message: "c"})
	if l.Len() != 2 || c.Len() != 3 {
		t.Errorf("lengths %d and %d after appending to the copy", l.Len(), c.Len())
	}
	var m Log
	m.AppendLog(l)
	m.AppendLog(c)
	if m.Len() != 5 || m.At(4).Message != "c" {
		t.Errorf("AppendLog: %v", m)
	}
	m.Clear(1)
	if m.Len() != 1 || m.recs[:2][1].Message != "" {
		t.Errorf("Clear: %v", m)
	}
}

// encodeIndented is v as an encoder set to indent, and to escape HTML or not, writes it.
func encodeIndented(t *testing.T, v any, escapeHTML bool) string {
	t.Helper()
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(escapeHTML)
	e.SetIndent("", " ")
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
