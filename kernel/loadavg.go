package kernel

import (
	"bytes"
	"fmt"
	"io"
)

// LoadAvg is /proc/loadavg.
type LoadAvg struct {
	Load1    float64 `json:"load1"`
	Load5    float64 `json:"load5"`
	Load15   float64 `json:"load15"`
	Runnable int64   `json:"runnable"`
	Threads  int64   `json:"threads"`
	LastPID  int64   `json:"last_pid"`
}

// The file is "%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d" (fs/proc/loadavg.c): the three load
// averages, runnable tasks / all tasks (threads), and the last PID allocated in the
// reader's PID namespace.

// ReadLoadAvg reads /proc/loadavg under root.
func ReadLoadAvg(root Root) (LoadAvg, error) {
	return parseFile(root, "proc/loadavg", ParseLoadAvg)
}

// ParseLoadAvg parses /proc/loadavg text.
func ParseLoadAvg(r io.Reader) (LoadAvg, error) {
	return parseText(r, ParseLoadAvgInto)
}

// ParseLoadAvgInto parses /proc/loadavg text into dst.
func ParseLoadAvgInto(dst *LoadAvg, data []byte) error {
	lines := txtLines{data: data}
	line, ok := lines.nextNonBlank()
	if !ok {
		return fmt.Errorf("loadavg: empty")
	}
	var f [5][]byte
	rest := line
	for i := range f {
		f[i], rest = txtField(rest)
	}
	if len(f[4]) == 0 || !txtBlank(rest) {
		return lines.errorf("want \"load1 load5 load15 runnable/threads lastpid\", got %q", txtTrim(line))
	}
	var l LoadAvg
	for i, p := range [...]*float64{&l.Load1, &l.Load5, &l.Load15} {
		v, ok := txtFloat(f[i])
		if !ok || v < 0 {
			return lines.errorf("load average %q is not a number", f[i])
		}
		*p = v
	}
	run, all, ok := bytes.Cut(f[3], []byte("/"))
	var ok1, ok2 bool
	l.Runnable, ok1 = txtInt(run)
	l.Threads, ok2 = txtInt(all)
	if !ok || !ok1 || !ok2 || l.Runnable < 0 || l.Threads < 0 {
		return lines.errorf("want \"runnable/threads\", got %q", f[3])
	}
	var ok3 bool
	l.LastPID, ok3 = txtInt(f[4])
	if !ok3 || l.LastPID < 0 {
		return lines.errorf("last PID %q is not a number", f[4])
	}
	if extra, ok := lines.nextNonBlank(); ok {
		return lines.errorf("unexpected second line %q", txtTrim(extra))
	}
	*dst = l
	return nil
}
