package source

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"headroom/kernel"
	"headroom/model"
)

// hostFile is where a capture keeps the facts that no /proc file holds (uname machine, page
// size). See capture.go.
const hostFile = "headroom/host.json"

type hostExtra struct {
	Arch     string `json:"arch"`
	PageSize int    `json:"page_size"`
	// CapturedAt is when a capture was taken; its one sample carries this time, so the
	// kernel log's clock times can be judged against it (doctor --log-since).
	CapturedAt time.Time `json:"captured_at,omitzero"`
}

// ReadHost reads the static facts of the host under root: once per run.
func ReadHost(root kernel.Root, nics []kernel.NIC) (model.Host, []model.Unavailable) {
	var h model.Host
	var missing []model.Unavailable
	note := func(what string, err error) {
		why := err.Error()
		if errors.Is(err, kernel.ErrNotSupported) {
			why = "not available"
		}
		missing = append(missing, model.Unavailable{What: what, Why: why})
	}
	if v, err := kernel.ReadSysctl(root, "kernel.osrelease"); err == nil {
		h.Kernel = v
	} else {
		note("kernel.osrelease", err)
	}
	if v, err := kernel.ReadSysctl(root, "kernel.hostname"); err == nil {
		h.Hostname = v
	}
	extra := readHostExtra(root)
	h.Arch = extra.Arch
	h.SetPageSize(extra.PageSize)
	h.WordBits = kernel.ArchWordBits(h.Arch)

	if mi, err := kernel.ReadMemInfo(root); err == nil {
		h.MemTotalKB, _ = mi.Get("MemTotal")
		if low, ok := mi.Get("LowTotal"); ok {
			h.LowTotalKB = low
			t := true
			h.HighMem = &t
		}
	} else {
		note("/proc/meminfo", err)
	}
	if zones, err := kernel.ReadZoneInfo(root); err == nil {
		hm := false
		for _, z := range zones {
			if z.Name == "HighMem" {
				hm = true
			}
		}
		if h.HighMem == nil || hm {
			h.HighMem = &hm
		}
	}
	if st, err := kernel.ReadStat(root); err == nil {
		h.CPUs = len(st.PerCPU)
	}
	h.NICs = nics
	vals, unavail := kernel.ReadSysctls(root, kernel.RuleSysctls)
	h.Sysctls = vals
	for _, k := range kernel.RuleSysctls {
		if err, ok := unavail[k]; ok && !errors.Is(err, kernel.ErrNotSupported) {
			// Keys this kernel does not have are expected (tcp_rto_max_ms before 6.x);
			// only other failures (permission) are worth listing.
			note("sysctl "+k, err)
		}
	}
	return h, missing
}

func readHostExtra(root kernel.Root) hostExtra {
	var e hostExtra
	if root.IsHost() {
		var u unix.Utsname
		if unix.Uname(&u) == nil {
			e.Arch = unix.ByteSliceToString(u.Machine[:])
		}
		e.PageSize = os.Getpagesize()
		return e
	}
	if b, err := root.ReadFile(hostFile); err == nil {
		_ = json.Unmarshal(b, &e) // a damaged file leaves the facts unknown, as if absent
	}
	if e.Arch == "" {
		// kernel.arch exists as a sysctl on some kernels; otherwise unknown.
		if v, err := kernel.ReadSysctl(root, "kernel.arch"); err == nil {
			e.Arch = strings.TrimSpace(v)
		}
	}
	return e
}
