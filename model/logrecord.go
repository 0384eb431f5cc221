package model

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unsafe"
)

// LogRecord is one kernel log message, from /dev/kmsg or a pasted dmesg/syslog.
//
// A pasted syslog of 100 MB holds about 700,000 kernel lines, each a record, so the record's
// size is the log's memory (issue 33): every page of it is faulted in and zeroed as the
// parse writes it. The usual record keeps only what every record has, 56 bytes (96 before);
// the rest is derived when asked or kept aside (logExtra) by the few records that have it:
//
//   - a text's record keeps its line number and its syslog stamp, and Where formats "line N
//     (stamp)" for the few records a rule, an event or the JSON cites (formatting it for
//     every record was a third of the records' cost: 176 ms against 110 on the bench's
//     syslog);
//   - the stamp is kept as a pointer to its first byte and its length (a string's header
//     less 7 bytes);
//   - a wall-clock Time (an RFC 3339 stamp, boot time + uptime) and a Source ("/dev/kmsg seq
//     N") are kept aside: a BSD syslog stamp has no year and leaves Time zero.
//
// The fields a rule reads are Message, UptimeUsec and Priority, and the methods Time, Where
// and Source. The JSON is what it always was: time, uptime_usec, priority, message, source
// (Where).
type LogRecord struct {
	Message    string
	UptimeUsec int64 // monotonic timestamp; -1 when unknown
	Priority   int   // syslog level; -1 when unknown
	extra      *logExtra
	// The line's syslog stamp when it was not parsed into Time ("Jan  1 00:00:02"):
	// stampLen bytes from stampAt (stampLen 0: none, or in extra).
	stampAt  *byte
	line     int32 // the text's line number, 0 when Source says where
	stampLen uint8
}

// logExtra is what a record has that most of a big text's records do not.
type logExtra struct {
	time   time.Time // wall clock when known (syslog prefix, or boot time + uptime)
	source string    // where the record was read: "/dev/kmsg seq 1234"
	stamp  string    // a stamp not kept beside the message
	line   int       // a line number past int32
}

// extraOf is the record's own copy of its extra, to be changed: copies of a record share
// the extra, and a record is a value (setting one copy's Time leaves the others as they
// were).
func (r *LogRecord) extraOf() *logExtra {
	if r.extra == nil {
		r.extra = &logExtra{}
	} else {
		c := *r.extra
		r.extra = &c
	}
	return r.extra
}

// Time is the wall clock when the record was logged, zero when unknown.
func (r LogRecord) Time() time.Time {
	if r.extra == nil {
		return time.Time{}
	}
	return r.extra.time
}

// SetTime sets the record's wall clock.
func (r *LogRecord) SetTime(t time.Time) {
	if t.IsZero() && r.extra == nil {
		return
	}
	r.extraOf().time = t
}

// Source says where a record that was not a text's line was read ("/dev/kmsg seq 1234");
// empty for a text's record, whose place Where says.
func (r LogRecord) Source() string {
	if r.extra == nil || r.Line() != 0 {
		return ""
	}
	return r.extra.source
}

// SetSource says where the record was read, for a record that is not a text's line.
func (r *LogRecord) SetSource(src string) {
	r.line, r.stampAt, r.stampLen = 0, nil, 0
	if src == "" && r.extra == nil {
		return
	}
	x := r.extraOf()
	x.source, x.stamp, x.line = src, "", 0
}

// SetLine says the record was read from line no of a text, with the line's syslog stamp
// when that was not parsed into Time ("" for none).
func (r *LogRecord) SetLine(no int, stamp string) {
	r.setLine(no)
	r.stampAt, r.stampLen = nil, 0
	if stamp != "" && len(stamp) <= math.MaxUint8 {
		r.stampAt, r.stampLen = unsafe.StringData(stamp), uint8(len(stamp))
		stamp = ""
	}
	if stamp != "" || r.extra != nil && r.extra.stamp != "" {
		r.extraOf().stamp = stamp
	}
}

func (r *LogRecord) setLine(no int) {
	if r.extra != nil {
		x := r.extraOf()
		x.source, x.line = "", 0
	}
	if no > math.MaxInt32 || no < 0 {
		r.line = -1
		r.extraOf().line = no
		return
	}
	r.line = int32(no)
}

// Line is the text's line number the record was read from, 0 for a record read elsewhere
// (/dev/kmsg, a recording).
func (r LogRecord) Line() int {
	if r.line == -1 {
		return r.extra.line
	}
	return int(r.line)
}

// stamp is the line's syslog stamp kept by SetLine.
func (r *LogRecord) stamp() string {
	if r.stampLen != 0 {
		return unsafe.String(r.stampAt, int(r.stampLen))
	}
	if r.extra != nil {
		return r.extra.stamp
	}
	return ""
}

// Stamped reports whether the record carries a time of its own: an uptime, a wall clock, a
// syslog stamp kept beside it, or a place outside a text (a live /dev/kmsg or a recording).
// A text's unstamped record may be a message quoted in prose as an example.
func (r LogRecord) Stamped() bool {
	return r.UptimeUsec >= 0 || !r.Time().IsZero() || r.stamp() != "" || r.Line() == 0
}

// Where says where the record was read: Source, or "line N" or "line N (stamp)" for a
// record of a text.
func (r LogRecord) Where() string {
	no := r.Line()
	if no == 0 {
		return r.Source()
	}
	stamp := r.stamp()
	b := make([]byte, 0, 5+20+3+len(stamp))
	b = append(b, "line "...)
	b = strconv.AppendInt(b, int64(no), 10)
	if stamp != "" {
		b = append(b, " ("...)
		b = append(b, stamp...)
		b = append(b, ')')
	}
	return string(b)
}

// logRecordJSON is a LogRecord's encoding.
type logRecordJSON struct {
	Time       time.Time `json:"time,omitzero"`         // wall clock when known (syslog prefix, or boot time + uptime)
	UptimeUsec int64     `json:"uptime_usec,omitempty"` // monotonic timestamp; -1 when unknown
	Priority   int       `json:"priority"`              // syslog level; -1 when unknown
	Message    string    `json:"message"`
	Source     string    `json:"source,omitempty"` // Where
}

// MarshalJSON writes Where as the source, so a text's record encodes as it did when the
// source was formatted while reading.
func (r LogRecord) MarshalJSON() ([]byte, error) {
	// Unescaped here: the encoder that called this escapes HTML in what it returns when it
	// is set to, so the bytes are those it would have written itself either way.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(logRecordJSON{r.Time(), r.UptimeUsec, r.Priority, r.Message, r.Where()}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON wrote: the source as the record's Source (a decoded
// record has no line of a text).
func (r *LogRecord) UnmarshalJSON(data []byte) error {
	var v logRecordJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*r = LogRecord{Message: v.Message, UptimeUsec: v.UptimeUsec, Priority: v.Priority}
	r.SetTime(v.Time)
	r.SetSource(v.Source)
	return nil
}

// WithTime is the record with its wall clock set (SetTime), for a record built in one
// expression.
func (r LogRecord) WithTime(t time.Time) LogRecord {
	r.SetTime(t)
	return r
}

// WithSource is the record with where it was read set (SetSource).
func (r LogRecord) WithSource(src string) LogRecord {
	r.SetSource(src)
	return r
}
