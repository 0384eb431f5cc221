package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"headroom/internal/buildinfo"
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
	// KernelLogError is why the kernel log could not be captured ("/dev/kmsg: permission
	// denied ..."), so that a report of the capture names the reason, not "not available".
	KernelLogError string `json:"kernel_log_error,omitempty"`
	// Build is the headroom that took the capture.
	Build *buildinfo.Info `json:"build,omitempty"`
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
	// tune --from compares it with this host's: changes derived at another boot, or on
	// another host, are refused unless the user says they are for this host.
	if v, err := kernel.ReadSysctl(root, "kernel.random.boot_id"); err == nil {
		h.BootID = v
	}
	extra, err := readHostExtraChecked(root)
	if err != nil {
		note(hostFile, err)
	}
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
	for k, v := range vals {
		if err := checkVectorSysctl(k, v); err != nil {
			delete(vals, k)
			note("sysctl "+k, err)
		}
	}
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

// readHostExtra reads the facts no /proc file holds; readHostExtraChecked says what was
// wrong with them.
func readHostExtra(root kernel.Root) hostExtra {
	e, _ := readHostExtraChecked(root)
	return e
}

// readHostExtraChecked reads the facts no /proc file holds. A damaged headroom/host.json
// leaves them unknown, as if absent, and says so: the page size it carries scales every
// count in pages.
func readHostExtraChecked(root kernel.Root) (hostExtra, error) {
	var e hostExtra
	if root.IsLive() { // a mounted host runs this kernel too
		var u unix.Utsname
		if unix.Uname(&u) == nil {
			e.Arch = unix.ByteSliceToString(u.Machine[:])
		}
		e.PageSize = os.Getpagesize()
		return e, nil
	}
	var bad error
	if b, err := root.ReadFile(hostFile); err == nil {
		if err := json.Unmarshal(b, &e); err != nil {
			e = hostExtra{}
			bad = fmt.Errorf("malformed, its facts (architecture, page size, capture time) are left unknown: %v", err)
		} else if e.PageSize < 0 || e.PageSize&(e.PageSize-1) != 0 {
			bad = fmt.Errorf("page_size %d is not a power of two, left unknown", e.PageSize)
			e.PageSize = 0
		}
	}
	if e.Arch == "" {
		// kernel.arch exists as a sysctl on some kernels; otherwise unknown.
		if v, err := kernel.ReadSysctl(root, "kernel.arch"); err == nil {
			e.Arch = strings.TrimSpace(v)
		}
	}
	return e, bad
}

// vectorSysctls print a fixed number of integers (Documentation/networking/ip-sysctl.rst:
// "vector of 3 INTEGERs: min, pressure, max" for tcp_mem and udp_mem; min, default, max
// for tcp_rmem and tcp_wmem).
var vectorSysctls = map[string]int{
	"net.ipv4.tcp_mem": 3, "net.ipv4.udp_mem": 3, "net.ipv4.tcp_rmem": 3, "net.ipv4.tcp_wmem": 3,
}

// checkVectorSysctl refuses a vector sysctl that is not its integers, as a damaged capture
// or an edited file has it: the rules would otherwise find it unparsable and report it
// missing, with no word of why.
func checkVectorSysctl(key, v string) error {
	n, ok := vectorSysctls[key]
	if !ok {
		return nil
	}
	f := strings.Fields(v)
	if len(f) != n {
		return fmt.Errorf("malformed value %q: want %d integers, left out", v, n)
	}
	for _, x := range f {
		if _, err := strconv.ParseInt(x, 10, 64); err != nil {
			return fmt.Errorf("malformed value %q: %q is not an integer, left out", v, x)
		}
	}
	return nil
}
