package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/source"
)

// Origin is what a doctor report (`headroom doctor --format json`) says about where its
// changes were derived: the kind of source and the host facts it read; or, for a plan
// (`headroom plan --format json`), the host shape it was computed for. A bare array of
// changes has no origin.
type Origin struct {
	SourceKind string
	SourceName string
	Hostname   string
	BootID     string
	Kernel     string
	MemTotalKB int64
	// Plan is a plan's target host; nil for a doctor report. Its hostname and boot do not
	// matter, only its shape: a plan computed elsewhere for this shape is for this host.
	Plan *plan.TargetHost
}

// ReadThisHost reads this host's facts under root with the reader doctor uses
// (source.ReadHost): hostname, boot id (kernel.random.boot_id changes at every boot:
// Documentation/admin-guide/sysctl/kernel.rst), kernel release, MemTotal and LowTotal,
// machine, page size and CPUs, to compare with a report's or a plan's. The kernel release and
// MemTotal are required.
func ReadThisHost(root kernel.Root) (model.Host, error) {
	h, missing := source.ReadHost(root, nil)
	if h.Kernel == "" || h.MemTotalKB == 0 {
		why := "kernel.osrelease or MemTotal unreadable"
		for _, m := range missing {
			if m.What == "kernel.osrelease" || m.What == "/proc/meminfo" {
				why = m.What + ": " + m.Why
			}
		}
		return h, fmt.Errorf("this host's facts: %s", why)
	}
	return h, nil
}

// ParseInput reads changes as ParseChanges does and, for a doctor report, its origin.
func ParseInput(r io.Reader) ([]model.Change, *Origin, error) {
	data, err := readInput(r)
	if err != nil {
		return nil, nil, err
	}
	changes, err := parseChangesData(data)
	if err != nil {
		return nil, nil, err
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return changes, nil, nil
	}
	var doc struct {
		Findings json.RawMessage `json:"findings"`
		Source   *struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"source"`
		Settings   json.RawMessage  `json:"settings"`
		TargetHost *plan.TargetHost `json:"target_host"`
		Input      *struct {
			MemoryBytes   int64  `json:"memory_bytes"`
			LowmemBytes   int64  `json:"lowmem_bytes"`
			PageSizeBytes int    `json:"page_size_bytes"`
			KernelVersion string `json:"kernel_version"`
			Arch          string `json:"arch"`
		} `json:"input"`
		WordBits int `json:"word_bits"`
		Host     *struct {
			Hostname   string `json:"hostname"`
			BootID     string `json:"boot_id"`
			Kernel     string `json:"kernel"`
			MemTotalKB int64  `json:"mem_total_kb"`
		} `json:"host"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("changes input: %w", err)
	}
	if doc.Findings == nil && doc.Source == nil && doc.Host == nil {
		switch {
		case doc.Settings == nil:
			return changes, nil, nil // {"changes": [...]}: no host
		case doc.TargetHost != nil:
			return changes, &Origin{Plan: doc.TargetHost}, nil
		case doc.Input != nil:
			// A plan of a headroom before target_host: its input holds the shape, without
			// where each fact came from.
			in := doc.Input
			return changes, &Origin{Plan: &plan.TargetHost{MemoryBytes: in.MemoryBytes, LowmemBytes: in.LowmemBytes,
				Kernel: in.KernelVersion, Arch: in.Arch, WordBits: doc.WordBits, PageSizeBytes: in.PageSizeBytes}}, nil
		}
		return changes, nil, nil
	}
	o := &Origin{}
	if doc.Source != nil {
		o.SourceKind, o.SourceName = doc.Source.Kind, doc.Source.Name
	}
	if doc.Host != nil {
		o.Hostname, o.BootID, o.Kernel, o.MemTotalKB = doc.Host.Hostname, doc.Host.BootID, doc.Host.Kernel, doc.Host.MemTotalKB
	}
	return changes, o, nil
}

// memSlackPercent is how far MemTotal may differ on the same host: it moves a little with
// memory hotplug, balloon drivers and crashkernel reservations between kernels.
const memSlackPercent = 1

// Mismatch says, in words, why the report's changes may not be for this host; nil when
// its facts are this host's. Changes derived from pasted text never are: the text's
// values describe whatever host it was copied from, at whatever time.
func (o *Origin) Mismatch(h model.Host) []string {
	if o.Plan != nil {
		return planMismatch(o.Plan, h)
	}
	var why []string
	if o.SourceKind == model.SourceText {
		name := o.SourceName
		if name == "" {
			name = "pasted text"
		}
		why = append(why, fmt.Sprintf("derived from pasted text (%s), not read from this host", name))
	}
	if o.Hostname == "" && o.BootID == "" {
		why = append(why, "the report does not name its host (no hostname or boot id)")
	}
	if o.Hostname != "" && h.Hostname != "" && o.Hostname != h.Hostname {
		why = append(why, fmt.Sprintf("the report is of host %q; this is %q", o.Hostname, h.Hostname))
	}
	if o.BootID != "" && h.BootID != "" && !strings.EqualFold(o.BootID, h.BootID) {
		why = append(why, fmt.Sprintf("the report is of boot %s; this host runs boot %s (another host, or rebooted since)", o.BootID, h.BootID))
	}
	if o.Kernel != "" && h.Kernel != "" && o.Kernel != h.Kernel {
		why = append(why, fmt.Sprintf("the report's kernel is %s; this host runs %s", o.Kernel, h.Kernel))
	}
	if o.MemTotalKB > 0 && h.MemTotalKB > 0 && !within(o.MemTotalKB, h.MemTotalKB, memSlackPercent) {
		why = append(why, fmt.Sprintf("the report's MemTotal is %d kB; this host has %d kB", o.MemTotalKB, h.MemTotalKB))
	}
	return why
}

// NotFor says, for a refusal, what kind of input was not for this host.
func (o *Origin) NotFor() string {
	if o.Plan != nil {
		return "the plan was computed for another host"
	}
	return "the changes were not derived from this host"
}
