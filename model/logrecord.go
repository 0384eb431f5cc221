package model

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// A pasted syslog of 100 MB holds about 700,000 kernel lines, and each becomes a LogRecord
// whose source is "line N (stamp)". Formatting that string for every record was a third of
// the records' cost in the text reader (issue 33: 176 ms with the strings against 110 ms
// without, on the bench's syslog), while a rule reads the source of a handful of records:
// those it cites. So a text's record keeps its line number and stamp, and Where formats them
// when a rule, an event or the JSON asks.

// SetLine says the record was read from line no of a text, with the line's syslog stamp
// when that was not parsed into Time ("" for none). Source is left empty.
func (r *LogRecord) SetLine(no int, stamp string) {
	r.line, r.stamp, r.Source = no, stamp, ""
}

// Line is the text's line number the record was read from, 0 for a record read elsewhere
// (/dev/kmsg, a recording).
func (r *LogRecord) Line() int { return r.line }

// Where says where the record was read: Source, or "line N" or "line N (stamp)" for a
// record of a text.
func (r *LogRecord) Where() string {
	if r.line == 0 {
		return r.Source
	}
	b := make([]byte, 0, 5+20+3+len(r.stamp))
	b = append(b, "line "...)
	b = strconv.AppendInt(b, int64(r.line), 10)
	if r.stamp != "" {
		b = append(b, " ("...)
		b = append(b, r.stamp...)
		b = append(b, ')')
	}
	return string(b)
}

// logRecordJSON is a LogRecord without its methods, so that MarshalJSON can encode it.
type logRecordJSON LogRecord

// MarshalJSON writes Where as the source, so a text's record encodes as it did when the
// source was formatted while reading.
func (r LogRecord) MarshalJSON() ([]byte, error) {
	if r.line != 0 {
		r.Source = r.Where()
	}
	// Unescaped here: the encoder that called this escapes HTML in what it returns when it
	// is set to, so the bytes are those it would have written itself either way.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(logRecordJSON(r)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
