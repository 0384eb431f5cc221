package model

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"unsafe"
)

// Log is a kernel log: its records in the order read.
//
// A text's log is kept packed (SetText): a record whose message and syslog stamp lie in the
// text is kept as their offsets and the few numbers a record has, 24 bytes, and At makes
// the LogRecord (56 bytes) when it is read. The bench's 100 MiB syslog logs 698,400 records:
// 39 MB of LogRecords, each page of them faulted in and zeroed as the parse wrote it, against
// 17 MB packed (issue 33, docs/performance.md "Issue 33, parse9"). A record that does not
// fit (a message joined from wrapped pieces or rewritten, a clock time, a /dev/kmsg source)
// is kept whole beside the packed ones and listed in its place. A log of records read
// elsewhere (/dev/kmsg, a recording) is not packed: NewLog keeps the slice as it is.
//
// A Log is a value that shares its storage with its copies, as a slice does: appending to
// one copy leaves the others' lengths as they were.
type Log struct {
	recs   []LogRecord // the records (unpacked), or the whole ones a packed log lists
	text   string      // what packed records point into; "" when not packed
	packed []packedRecord
	isText bool // packed: At reads packed
}

// packedRecord is a LogRecord of a text whose message (and stamp) lie in the text.
type packedRecord struct {
	uptime int64
	msg    uint32 // the message's offset in the text; for a whole record, its index in recs
	msgLen uint32
	line   int32 // the text's line number (> 0); -1 for a whole record
	back   uint16
	// The stamp is stampLen bytes from msg-back (stampLen 0: none).
	stampLen uint8
	prio     int8
}

// NewLog is a log of recs, which it keeps (not a copy).
func NewLog(recs []LogRecord) Log { return Log{recs: recs} }

// SetText makes the empty log l a packed log of records read from text, with room for n
// (a log that holds records already stays as it is).
func (l *Log) SetText(text string, n int) {
	if l.Len() > 0 {
		return
	}
	*l = Log{text: text, isText: true, packed: make([]packedRecord, 0, n)}
}

// Len is the number of records.
func (l Log) Len() int {
	if l.isText {
		return len(l.packed)
	}
	return len(l.recs)
}

// Full reports whether l holds Cap records, so that the next Append grows it. It takes a
// pointer: Len and Cap take the Log by value, and a text's parse asks this of every record
// it logs (issue 33, perf15q: the copy of the Log was a stall on the length just stored).
func (l *Log) Full() bool {
	if l.isText {
		return len(l.packed) == cap(l.packed)
	}
	return len(l.recs) == cap(l.recs)
}

// String prints the records, as a []LogRecord prints.
func (l Log) String() string { return fmt.Sprint(l.Records()) }

// IsZero reports an empty log (the JSON leaves it out).
func (l Log) IsZero() bool { return l.Len() == 0 }

// CountedReads, when a test sets it, counts the records At makes: the parse's budget test
// (artifact TestParseBudget) bounds how many records the readers at the end of a parse
// read, so that a reader that reads every record is gated before it merges.
var CountedReads *int

// At is record i.
func (l Log) At(i int) LogRecord {
	if CountedReads != nil {
		*CountedReads++
	}
	if !l.isText {
		return l.recs[i]
	}
	p := &l.packed[i]
	if p.line < 0 {
		return l.recs[p.msg]
	}
	r := LogRecord{Message: l.text[p.msg : p.msg+p.msgLen], UptimeUsec: p.uptime, Priority: int(p.prio),
		line: p.line, stampLen: p.stampLen}
	if p.stampLen != 0 {
		r.stampAt = unsafe.StringData(l.text[p.msg-uint32(p.back):])
	}
	return r
}

// All yields the records in order, with their indexes.
func (l Log) All() iter.Seq2[int, LogRecord] {
	return func(yield func(int, LogRecord) bool) {
		for i := range l.Len() {
			if !yield(i, l.At(i)) {
				return
			}
		}
	}
}

// Records is the records as a slice: l's own for a log that is not packed (not to be
// changed), a new one for a packed log.
func (l Log) Records() []LogRecord {
	if !l.isText {
		return l.recs
	}
	out := make([]LogRecord, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// Append appends the records.
func (l *Log) Append(recs ...LogRecord) {
	if !l.isText {
		l.recs = append(l.recs, recs...)
		return
	}
	for _, r := range recs {
		l.packed = append(l.packed, l.pack(r))
	}
}

// AppendLine appends a text's record: msg read from line no, with the line's syslog stamp
// when that was not parsed into a clock time ("" for none). It is Append of the record
// that SetLine(no, stamp) makes, packed without making it when msg and stamp lie in the text.
func (l *Log) AppendLine(msg string, uptimeUsec int64, priority int, no int, stamp string) {
	if l.isText && no > 0 && no <= math.MaxInt32 && priority >= math.MinInt8 && priority <= math.MaxInt8 && len(stamp) <= math.MaxUint8 {
		if off, ok := offsetIn(l.text, msg); ok {
			p := packedRecord{uptime: uptimeUsec, msg: uint32(off), msgLen: uint32(len(msg)), line: int32(no), prio: int8(priority)}
			if stamp == "" {
				l.packed = append(l.packed, p)
				return
			}
			if soff, ok := offsetIn(l.text, stamp); ok && soff <= off && off-soff <= math.MaxUint16 {
				p.back, p.stampLen = uint16(off-soff), uint8(len(stamp))
				l.packed = append(l.packed, p)
				return
			}
		}
	}
	r := LogRecord{Message: msg, UptimeUsec: uptimeUsec, Priority: priority}
	r.SetLine(no, stamp)
	l.Append(r)
}

// AppendLog appends the records of o.
func (l *Log) AppendLog(o Log) {
	if !o.isText && !l.isText {
		l.recs = append(l.recs, o.recs...)
		return
	}
	for _, r := range o.All() {
		l.Append(r)
	}
}

// Set replaces record i.
func (l *Log) Set(i int, r LogRecord) {
	if !l.isText {
		l.recs[i] = r
		return
	}
	l.packed[i] = l.pack(r)
}

// SetMessage replaces the message of record i.
func (l *Log) SetMessage(i int, msg string) {
	r := l.At(i)
	r.Message = msg
	l.Set(i, r)
}

// SortByLine sorts the records by the text's line they were read from, keeping the order of
// records of one line.
func (l *Log) SortByLine() {
	if !l.isText {
		slices.SortStableFunc(l.recs, func(a, b LogRecord) int { return cmp.Compare(a.Line(), b.Line()) })
		return
	}
	line := func(p packedRecord) int {
		if p.line < 0 {
			return l.recs[p.msg].Line()
		}
		return int(p.line)
	}
	slices.SortStableFunc(l.packed, func(a, b packedRecord) int { return cmp.Compare(line(a), line(b)) })
}

// Truncate keeps the first n records.
func (l *Log) Truncate(n int) {
	if !l.isText {
		l.recs = l.recs[:n]
		return
	}
	l.packed = l.packed[:n]
}

// Clear keeps the first n records and clears the rest of the storage, so that it keeps no
// dropped record reachable.
func (l *Log) Clear(n int) {
	if !l.isText {
		clear(l.recs[n:])
		l.recs = l.recs[:n]
		return
	}
	l.packed = l.packed[:n]
}

// Grow makes room for at least n more records without another allocation.
func (l *Log) Grow(n int) {
	if !l.isText {
		if cap(l.recs)-len(l.recs) < n {
			recs := make([]LogRecord, len(l.recs), len(l.recs)+n)
			copy(recs, l.recs)
			l.recs = recs
		}
		return
	}
	if cap(l.packed)-len(l.packed) < n {
		p := make([]packedRecord, len(l.packed), len(l.packed)+n)
		copy(p, l.packed)
		l.packed = p
	}
}

// pack is r as a packed record of l's text, or a whole record listed.
func (l *Log) pack(r LogRecord) packedRecord {
	if r.extra == nil && r.line > 0 && r.Priority >= math.MinInt8 && r.Priority <= math.MaxInt8 {
		if off, ok := offsetIn(l.text, r.Message); ok {
			p := packedRecord{uptime: r.UptimeUsec, msg: uint32(off), msgLen: uint32(len(r.Message)), line: r.line, prio: int8(r.Priority)}
			if r.stampLen == 0 {
				return p
			}
			if soff, ok := offsetIn(l.text, unsafe.String(r.stampAt, int(r.stampLen))); ok && soff <= off && off-soff <= math.MaxUint16 {
				p.back, p.stampLen = uint16(off-soff), r.stampLen
				return p
			}
		}
	}
	l.recs = append(l.recs, r)
	return packedRecord{msg: uint32(len(l.recs) - 1), line: -1}
}

// offsetIn is where s starts in text, when s lies in it at an offset that fits 32 bits.
func offsetIn(text, s string) (int, bool) {
	if len(s) == 0 || len(text) == 0 {
		return 0, false
	}
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(text)))
	if off > uintptr(len(text)) || uintptr(len(s)) > uintptr(len(text))-off || off+uintptr(len(s)) > math.MaxUint32 {
		return 0, false
	}
	return int(off), true
}

// MarshalJSON writes the records as an array, as a []LogRecord was written.
func (l Log) MarshalJSON() ([]byte, error) {
	if l.Len() == 0 {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range l.All() {
		if i > 0 {
			b.WriteByte(',')
		}
		j, err := r.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(j)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (l *Log) UnmarshalJSON(data []byte) error {
	var recs []LogRecord
	if err := json.Unmarshal(data, &recs); err != nil {
		return err
	}
	*l = Log{recs: recs}
	return nil
}
