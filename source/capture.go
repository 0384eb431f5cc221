package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/internal/buildinfo"
	"headroom/kernel"
)

// captureFiles are the /proc files a sample reads; a capture holds each that exists.
var captureFiles = []string{
	"proc/meminfo", "proc/vmstat", "proc/buddyinfo", "proc/zoneinfo", "proc/pagetypeinfo",
	"proc/stat", "proc/interrupts", "proc/loadavg",
	"proc/pressure/cpu", "proc/pressure/memory", "proc/pressure/io",
	"proc/net/dev", "proc/net/netstat", "proc/net/snmp", "proc/net/snmp6",
	"proc/net/sockstat", "proc/net/sockstat6", "proc/net/protocols", "proc/net/softnet_stat",
	"proc/net/stat/nf_conntrack",
}

// Capture writes a txtar archive holding every file the readers use, so that
// `doctor --from FILE.txtar` reads a captured host through exactly the code of a live one:
// the /proc files, the sysctls rules read, the kernel threads' stat files, the kernel log in
// /dev/kmsg record format, the NIC facts from /sys, and three files of our own under
// headroom/ for what no file holds (uname and page size, ethtool statistics and rings, the
// sock_diag dump). It returns what could not be captured; those are absent in the archive,
// so the captured host reports them as not available just as the live one does.
func Capture(root kernel.Root, w io.Writer) (missing []string, err error) {
	a := &txtar.Archive{Comment: []byte("headroom capture of " + root.Name + "\n")}
	add := func(name string, data []byte) {
		a.Files = append(a.Files, txtar.File{Name: name, Data: data})
	}
	miss := func(what string, err error) {
		missing = append(missing, fmt.Sprintf("%s: %v", what, err))
	}
	for _, name := range captureFiles {
		b, err := root.ReadFile(name)
		if err != nil {
			if !errors.Is(err, kernel.ErrNotSupported) {
				miss(name, err)
			}
			continue
		}
		add(name, b)
	}
	keys := append([]string{"kernel.osrelease", "kernel.hostname", "kernel.random.boot_id"}, kernel.RuleSysctls...)
	vals, _ := kernel.ReadSysctls(root, dedup(keys))
	names := make([]string, 0, len(vals))
	for k := range vals {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		add("proc/sys/"+strings.ReplaceAll(k, ".", "/"), []byte(vals[k]+"\n"))
	}
	for _, name := range sysctlConfFiles(root) {
		if b, err := root.ReadFile(name); err == nil {
			add(name, b)
		}
	}
	if ts, err := kernel.ReadKernelThreads(root); err == nil {
		for _, t := range ts {
			p := kernel.TaskStatPath(t.PID)
			if b, err := root.ReadFile(p); err == nil {
				add(p, b)
			}
		}
	} else {
		miss("kernel threads", err)
	}
	kmsgErr := ""
	if recs, err := kernel.ReadKmsg(root); err == nil {
		add("dev/kmsg", kernel.FormatKmsg(recs))
	} else {
		miss("/dev/kmsg", err)
		kmsgErr = err.Error()
	}
	nics, err := kernel.ReadNICs(root)
	if err != nil {
		miss("/sys/class/net", err)
	}
	for _, n := range nics {
		files, err := kernel.CaptureNICFiles(root, n.Name)
		if err != nil {
			miss("/sys/class/net/"+n.Name, err)
			continue
		}
		for _, p := range sortedKeys(files) {
			add(p, files[p])
		}
	}
	var eth kernel.Ethtool
	if root.IsHost() {
		if e, err := kernel.NewEthtool(); err == nil {
			eth = e
			defer e.Close()
		} else {
			miss("ethtool", err)
		}
	}
	for _, st := range kernel.ReadNICStats(root, eth, nics) {
		b, err := json.MarshalIndent(st, "", "\t")
		if err != nil {
			miss("ethtool "+st.Name, err)
			continue
		}
		add(kernel.NICStatsCapturePath(st.Name), b)
	}
	if socks, err := kernel.ReadSockets(root); err == nil {
		b, err := kernel.CaptureSockets(socks)
		if err == nil {
			add(kernel.SocketsCapturePath, b)
		} else {
			miss("sockets", err)
		}
	} else {
		miss("sock_diag", err)
	}
	he, err := readHostExtraChecked(root)
	if err != nil {
		miss(hostFile, err)
	}
	he.CapturedAt = time.Now().UTC().Truncate(time.Second)
	he.KernelLogError = kmsgErr
	he.Build = new(buildinfo.Get())
	extra, _ := json.Marshal(he)
	add(hostFile, append(extra, '\n'))
	if _, err := w.Write(txtar.Format(a)); err != nil {
		return missing, err
	}
	return missing, nil
}

func dedup(keys []string) []string {
	seen := map[string]bool{}
	out := keys[:0:0]
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
