package record

import (
	"time"

	"headroom/internal/buildinfo"
	"headroom/model"
	"headroom/source"
)

// FormatVersion is the version of the archive format, the value of the header's
// "headroom_record" key. Keys are only ever added within a version; a reader refuses a
// newer version rather than misread it.
const FormatVersion = 1

// Header is the first line of an archive and of every session appended to it (a recorder
// restarted on the same file writes a new header: counters may have been reset by a
// reboot in between, so rates are never derived across a header).
type Header struct {
	Version  int              `json:"headroom_record"`
	Host     model.Host       `json:"host"`
	Source   model.SourceInfo `json:"source"`
	Started  time.Time        `json:"started"`
	Interval Duration         `json:"interval"`
	// Sampler says which costly parts of a sample were read (pagetypeinfo, socket dumps,
	// ethtool), so a reader knows that an absent field was not asked for.
	Sampler source.Options `json:"sampler"`
	Tool    string         `json:"tool,omitempty"` // "headroom record"
	// Build is the headroom that wrote the session (added within version 1).
	Build *buildinfo.Info `json:"build,omitempty"`
}

// Entry is one line of an archive. Exactly one of its parts is set; a line with none of
// the known keys (written by a newer headroom) is skipped and counted.
type Entry struct {
	*Header
	Sample       *model.Sample       `json:"sample,omitempty"`
	Marker       *model.Marker       `json:"marker,omitempty"`
	Log          []model.LogRecord   `json:"log,omitempty"`
	NotAvailable []model.Unavailable `json:"not_available,omitempty"`
	// Trace is one part of a traced recording (record --trace): what the tracepoints said
	// since the previous part (added within version 1).
	Trace *model.TraceWindow `json:"trace,omitempty"`
}

// Duration is a time.Duration written as a Go duration string ("1s").
type Duration time.Duration

// MarshalText writes "1s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads "1s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}
