package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// Origin is what a doctor report (`headroom doctor --format json`) says about where its
// changes were derived: the kind of source and the host facts it read. A plan or a bare
// array of changes has no origin.
type Origin struct {
	SourceKind string
	SourceName string
	Hostname   string
	BootID     string
	Kernel     string
	MemTotalKB int64
}

// HostFacts are this host's facts that a report's are compared with.
type HostFacts struct {
	Hostname   string
	BootID     string
	Kernel     string
	MemTotalKB int64
}

// ReadHostFacts reads hostname, boot id and kernel release from proc/sys under root
// (kernel.random.boot_id changes at every boot: Documentation/admin-guide/sysctl/kernel.rst)
// and MemTotal from proc/meminfo.
func ReadHostFacts(root kernel.Root) (HostFacts, error) {
	var h HostFacts
	var err error
	if h.Hostname, err = kernel.ReadSysctl(root, "kernel.hostname"); err != nil {
		return h, err
	}
	if h.Kernel, err = kernel.ReadSysctl(root, "kernel.osrelease"); err != nil {
		return h, err
	}
	h.BootID, _ = kernel.ReadSysctl(root, "kernel.random.boot_id") // absent in some containers
	l, err := ReadLimits(root)
	if err != nil {
		return h, err
	}
	h.MemTotalKB = int64(l.MemTotalKB)
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
		Host *struct {
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
		return changes, nil, nil // a plan
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
func (o *Origin) Mismatch(h HostFacts) []string {
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
	if o.MemTotalKB > 0 && h.MemTotalKB > 0 {
		d := o.MemTotalKB - h.MemTotalKB
		if d < 0 {
			d = -d
		}
		if d*100 > h.MemTotalKB*memSlackPercent {
			why = append(why, fmt.Sprintf("the report's MemTotal is %d kB; this host has %d kB", o.MemTotalKB, h.MemTotalKB))
		}
	}
	return why
}
