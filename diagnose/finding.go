package diagnose

import (
	"encoding/json"
	"fmt"
	"time"

	"headroom/model"
)

// Severity of a finding. Info is context an operator should know (a kernel limit, a value
// that is unusual but not harmful now); Warning is suboptimal and likely to hurt under load;
// Critical is hurting now or has hurt (failures, drops, exhaustion).
type Severity int

const (
	Info Severity = iota
	Warning
	Critical
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Critical:
		return "critical"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalJSON writes the name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads the name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	switch name {
	case "info":
		*s = Info
	case "warning":
		*s = Warning
	case "critical":
		*s = Critical
	default:
		return fmt.Errorf("unknown severity %q", name)
	}
	return nil
}

// Evidence is one number a finding rests on and where it came from.
type Evidence struct {
	What   string `json:"what"`
	Value  string `json:"value"`
	Source string `json:"source"` // "line 14", "/proc/buddyinfo", "/proc/net/netstat TcpExt"
}

// Interval places a finding in time (recordings and live runs).
type Interval struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Finding is data, not a log line: what is wrong, the numbers that prove it, why it matters,
// and the changes that fix it.
type Finding struct {
	ID          string         `json:"id"`
	Severity    Severity       `json:"severity"`
	Title       string         `json:"title"`
	Evidence    []Evidence     `json:"evidence"`
	Explanation string         `json:"explanation"`
	Changes     []model.Change `json:"changes"`
	When        *Interval      `json:"when,omitempty"`
}

// Status of one rule's run.
type Status string

const (
	StatusFinding    Status = "finding"     // the rule fired
	StatusOK         Status = "ok"          // the rule had its data and found nothing wrong
	StatusNotChecked Status = "not-checked" // the rule lacked data; Why says what
)

// Check is the outcome of one rule, whether or not it fired.
type Check struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	Why    string `json:"why,omitempty"` // what was missing, or what was checked
}

// Result is what a rule returns. Exactly one of: Findings non-empty (fired); NotChecked set
// (lacked data); neither (checked, healthy — Checked may say what was looked at).
type Result struct {
	Findings   []Finding
	NotChecked string
	Checked    string
}

// NotChecked is a Result for a rule that lacked data.
func NotChecked(format string, args ...any) Result {
	return Result{NotChecked: fmt.Sprintf(format, args...)}
}

// Healthy is a Result for a rule that looked and found nothing wrong.
func Healthy(format string, args ...any) Result {
	return Result{Checked: fmt.Sprintf(format, args...)}
}

// Fired is a Result with findings.
func Fired(f ...Finding) Result { return Result{Findings: f} }
