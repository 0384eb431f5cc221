package netlab

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Net sysctls are resolved against the network namespace of the thread that opens the
// /proc/sys file (net/sysctl_net.c: net_ctl_header_lookup uses current->nsproxy->net_ns), so
// reading or writing from a thread inside a lab namespace touches only that namespace.
//
// Which keys a namespace has of its own differs by kernel version. Measured on 6.18 (see
// docs/lab.md): tcp_rmem, tcp_wmem, tcp_congestion_control, tcp_mtu_probing,
// tcp_adv_win_scale, tcp_moderate_rcvbuf, tcp_no_metrics_save and tcp_limit_output_bytes are
// per namespace (tcp_rmem/tcp_wmem since v4.15, "tcp: Namespace-ify sysctl_tcp_rmem and
// sysctl_tcp_wmem"); tcp_mem, tcp_max_orphans, netdev_max_backlog and
// default_qdisc exist only in the initial namespace; net.core.{r,w}mem_{default,max} appear
// in a child namespace but read-only (mode 0444) and mirror the initial namespace's values
// (tools/testing/selftests/net/netns-sysctl.sh checks exactly that).

// SysctlPath turns "net.ipv4.tcp_rmem" into "/proc/sys/net/ipv4/tcp_rmem".
func SysctlPath(key string) (string, error) {
	if key == "" || strings.Contains(key, "..") || strings.ContainsAny(key, " \t\n") {
		return "", fmt.Errorf("lab: bad sysctl key %q", key)
	}
	return "/proc/sys/" + strings.ReplaceAll(key, ".", "/"), nil
}

// NormalizeSysctl makes "4096\t87380  1048576\n" and "4096 87380 1048576" compare equal.
func NormalizeSysctl(v string) string { return strings.Join(strings.Fields(v), " ") }

// ReadSysctl reads key in the namespace of the calling thread, normalized.
func ReadSysctl(key string) (string, error) {
	p, err := SysctlPath(key)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("lab: read %s: %w", p, err)
	}
	return NormalizeSysctl(string(b)), nil
}

// WriteSysctl writes value to key in the namespace of the calling thread.
func WriteSysctl(key, value string) error {
	p, err := SysctlPath(key)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("lab: open %s: %w", p, err)
	}
	defer f.Close()
	if _, err := f.WriteString(value + "\n"); err != nil {
		return fmt.Errorf("lab: write %q to %s: %w", value, p, err)
	}
	return nil
}

// Scope says where a sysctl lives as seen from a lab namespace.
type Scope string

const (
	ScopeNetns    Scope = "netns"    // the namespace has its own writable copy
	ScopeGlobal   Scope = "global"   // only the initial namespace has it
	ScopeReadOnly Scope = "readonly" // visible in the namespace but read-only: a global in disguise
	ScopeMissing  Scope = "missing"  // this kernel has no such key at all
	// ScopeSocket: a congestion control the namespace may not default to, set on each
	// workload socket with TCP_CONGESTION instead.
	ScopeSocket Scope = "socket"
)

// keyScope classifies key from a thread inside a lab namespace (call it through Netns.Do).
// A key absent from the namespace is reported as ScopeGlobal; the caller tells global from
// missing by looking on the host (hostHasKey).
func keyScope(key string) (Scope, error) {
	p, err := SysctlPath(key)
	if err != nil {
		return "", err
	}
	// Only the net.* tree is resolved per network namespace. vm.*, kernel.* and fs.* are
	// visible and writable from inside a namespace but change the whole machine.
	if !strings.HasPrefix(key, "net.") {
		return ScopeGlobal, nil
	}
	if _, err := os.Stat(p); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("lab: stat %s: %w", p, err)
		}
		return ScopeGlobal, nil
	}
	if unix.Access(p, unix.W_OK) != nil {
		return ScopeReadOnly, nil
	}
	return ScopeNetns, nil
}

// hostHasKey reports whether the initial namespace has key. Call it from an ordinary
// goroutine: threads not locked into a lab namespace are in the process's own namespace.
func hostHasKey(key string) bool {
	p, err := SysctlPath(key)
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// restoreGlobalSysctls writes back journal entries in reverse order, and says what it did
// with each key, one sentence each. A key whose current value is neither one the run set
// (e.Set) nor the old one was changed by someone else since: it is left as it is. An entry
// of an older journal without Set is restored as before.
func restoreGlobalSysctls(runID string, entries []journalEntry) (notes []string, err error) {
	var errs []error
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		cur, rerr := ReadSysctl(e.Key)
		switch {
		case rerr != nil:
			errs = append(errs, rerr)
			continue
		case cur == e.Old:
			notes = append(notes, fmt.Sprintf("sysctl %s: already at its old value %q (run %s)", e.Key, e.Old, runID))
			continue
		case len(e.Set) > 0 && !slices.Contains(e.Set, cur):
			notes = append(notes, fmt.Sprintf("sysctl %s: left at %q, changed by someone else since run %s set %q (its value before the run: %q)", e.Key, cur, runID, e.Set[len(e.Set)-1], e.Old))
			continue
		}
		if err := WriteSysctl(e.Key, e.Old); err != nil {
			errs = append(errs, fmt.Errorf("lab: restore %s=%q: %w", e.Key, e.Old, err))
			continue
		}
		notes = append(notes, fmt.Sprintf("sysctl %s: restored %q (run %s had set %q)", e.Key, e.Old, runID, cur))
	}
	return notes, errors.Join(errs...)
}
