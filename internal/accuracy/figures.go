package main

import (
	"fmt"
	"time"
)

// totals adds the cases up; figures are the shares the table names.
type totals struct {
	Cases, Ran                int
	HeaderHit, Headers        int
	ZoneHit, ZoneFacts        int
	ValueHit, Values          int
	MustHit, Must             int
	Healthy, HealthyClean     int
	RootOK, RootScored        int
	MaxCPU                    time.Duration
	MaxCPUCase                string
	CasesWithUnparsed, Unpars int
}

func (t *totals) add(c corpusCase, s caseScore) {
	t.Cases++
	if s.Ran {
		t.Ran++
	}
	t.HeaderHit += s.HeaderHit
	t.Headers += s.Headers
	t.ZoneHit += s.ZoneHit
	t.ZoneFacts += s.ZoneFacts
	t.ValueHit += s.ValueHit
	t.Values += s.Values
	t.MustHit += s.MustHit
	t.Must += s.Must
	if c.Label.Healthy {
		t.Healthy++
		if s.Ran && len(s.FalseAlarms) == 0 {
			t.HealthyClean++
		}
	}
	if s.RootScored {
		t.RootScored++
		if s.RootOK {
			t.RootOK++
		}
	}
	if s.CPU > t.MaxCPU {
		t.MaxCPU, t.MaxCPUCase = s.CPU, c.Stem
	}
	if s.Unparsed > 0 {
		t.CasesWithUnparsed++
		t.Unpars += s.Unparsed
	}
}

// figures is what the baseline holds. Shares are percentages with one decimal.
type figures struct {
	Cases   int     `json:"cases"`
	Runs    float64 `json:"runs_pct"`
	Headers float64 `json:"headers_pct"`
	Zones   float64 `json:"zones_pct"`
	Values  float64 `json:"values_pct"`
	Must    float64 `json:"must_pct"`
	Healthy float64 `json:"healthy_clean_pct"`
	Root    float64 `json:"root_cause_pct"`

	line_ string
}

func pct(hit, of int) float64 {
	if of == 0 {
		return 100
	}
	return float64(int(float64(hit)*1000/float64(of))) / 10 // floor to 0.1
}

func (t totals) figures() figures {
	f := figures{
		Cases:   t.Cases,
		Runs:    pct(t.Ran, t.Cases),
		Headers: pct(t.HeaderHit, t.Headers),
		Zones:   pct(t.ZoneHit, t.ZoneFacts),
		Values:  pct(t.ValueHit, t.Values),
		Must:    pct(t.MustHit, t.Must),
		Healthy: pct(t.HealthyClean, t.Healthy),
		Root:    pct(t.RootOK, t.RootScored),
	}
	f.line_ = fmt.Sprintf("accuracy: cases=%d runs=%d/%d headers=%.1f%% (%d/%d) zones=%.1f%% (%d/%d) values=%.1f%% (%d/%d) must=%.1f%% (%d/%d) healthy=%d/%d root=%.1f%% (%d/%d) unparsed=%d lines in %d cases maxcpu=%dms (%s)",
		t.Cases, t.Ran, t.Cases, f.Headers, t.HeaderHit, t.Headers, f.Zones, t.ZoneHit, t.ZoneFacts,
		f.Values, t.ValueHit, t.Values, f.Must, t.MustHit, t.Must, t.HealthyClean, t.Healthy,
		f.Root, t.RootOK, t.RootScored, t.Unpars, t.CasesWithUnparsed, t.MaxCPU.Milliseconds(), t.MaxCPUCase)
	return f
}

func (f figures) line() string { return f.line_ }

// below names each figure of f under the baseline's.
func (f figures) below(base figures) []string {
	var out []string
	check := func(name string, now, was float64) {
		if now+0.05 < was {
			out = append(out, fmt.Sprintf("%s %.1f%% < %.1f%%", name, now, was))
		}
	}
	check("runs", f.Runs, base.Runs)
	check("headers", f.Headers, base.Headers)
	check("zones", f.Zones, base.Zones)
	check("values", f.Values, base.Values)
	check("must", f.Must, base.Must)
	check("healthy", f.Healthy, base.Healthy)
	check("root", f.Root, base.Root)
	if f.Cases < base.Cases {
		out = append(out, fmt.Sprintf("cases %d < %d", f.Cases, base.Cases))
	}
	return out
}
