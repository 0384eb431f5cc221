package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Capabilities of serve. Everything serve reads is readable by any user (docs/serve.md),
// except two things:
//
//   - /dev/kmsg when kernel.dmesg_restrict=1: devkmsg_open checks CAP_SYSLOG
//     (kernel/printk/printk.c check_syslog_permissions). Kept.
//   - /proc/pagetypeinfo (--pagetypeinfo) is mode 0400 owned by root: uid 0 reads it as
//     the file's owner, without CAP_DAC_OVERRIDE. Serve keeps uid 0, so nothing to keep.
//
// CAP_NET_ADMIN is needed by no reader: the ethtool commands serve sends (GSET, GDRVINFO,
// GRINGPARAM, GSSET_INFO, GSTRINGS, GSTATS) are on dev_ethtool's list of commands anyone
// may run (net/ethtool/ioctl.c), and sock_diag dumps are unprivileged (net/ipv4/inet_diag.c);
// TestUnprivileged in export runs them all as nobody. So serve started as root keeps
// CAP_SYSLOG alone.
//
// Capabilities are per thread (capset(2) changes the calling thread's), and a Go program
// has several threads before main runs; syscall.AllThreadsSyscall would reach them all but
// returns ENOTSUP in a cgo-linked binary. So serve drops them the way a shell's capsh
// --secbits --caps --addamb -- -c would: it listens first (a port below 1024 still works),
// then on one locked thread locks the securebits NOROOT and NO_SETUID_FIXUP (uid 0 gains
// nothing at execve, include/uapi/linux/securebits.h), empties the bounding set but for the
// kept capabilities, sets permitted, effective and inheritable to them, raises them as
// ambient, and re-executes itself with the listening socket inherited. The new image starts
// with exactly the ambient set (security/commoncap.c cap_bprm_creds_from_file: no file
// capabilities, root not special, P'(permitted) = P'(ambient)).
var serveKeepCaps = []int{unix.CAP_SYSLOG}

// dropPrivileges is false in the tests, which run serve inside the test process.
var dropPrivileges = true

// serveListenFDEnv names the inherited listening socket of the re-executed serve.
const serveListenFDEnv = "HEADROOM_SERVE_LISTEN_FD"

// Securebits (include/uapi/linux/securebits.h).
const (
	secbitNoroot             = 1 << 0
	secbitNorootLocked       = 1 << 1
	secbitNoSetuidFixup      = 1 << 2
	secbitNoSetuidFixupLockd = 1 << 3
)

// capMask is the capability bit mask of caps.
func capMask(caps []int) uint64 {
	var m uint64
	for _, c := range caps {
		m |= 1 << uint(c)
	}
	return m
}

// procCaps reads the Cap* lines of a /proc/PID/status or /proc/PID/task/TID/status file.
func procCaps(path string) (map[string]uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]uint64{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(k, "Cap") {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, k, err)
		}
		out[k] = n
	}
	if _, ok := out["CapEff"]; !ok {
		return nil, fmt.Errorf("%s: no CapEff line", path)
	}
	return out, nil
}

// inheritedListener returns the listening socket a re-executed serve was handed, or nil.
func inheritedListener() (net.Listener, error) {
	v, ok := os.LookupEnv(serveListenFDEnv)
	if !ok {
		return nil, nil
	}
	os.Unsetenv(serveListenFDEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%s=%q: not a descriptor", serveListenFDEnv, v)
	}
	unix.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "listener")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("%s=%d: %w", serveListenFDEnv, fd, err)
	}
	return ln, nil
}

// dropCapabilities re-executes serve with only keep when the process has more (as root, or
// given extra capabilities). It returns only when there is nothing to drop (nil) or when
// dropping failed (the error; serve then runs on, and says so). ln is handed to the new
// image.
func dropCapabilities(ln net.Listener, keep []int) error {
	want := capMask(keep)
	st, err := procCaps("/proc/self/status")
	if err != nil {
		return err
	}
	if st["CapEff"]&^want == 0 && st["CapPrm"]&^want == 0 {
		return nil
	}
	// Keep only what this process has: a container may have no CAP_SYSLOG to keep.
	want &= st["CapPrm"]
	var kept []int
	for _, c := range keep {
		if want&(1<<uint(c)) != 0 {
			kept = append(kept, c)
		}
	}
	keep = kept
	tl, ok := ln.(*net.TCPListener)
	if !ok {
		return fmt.Errorf("listener is a %T, not TCP", ln)
	}
	lf, err := tl.File() // a duplicate, close-on-exec
	if err != nil {
		return err
	}
	fd := int(lf.Fd())
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, 0); err != nil {
		lf.Close()
		return fmt.Errorf("listener: clear close-on-exec: %w", err)
	}
	// Everything below changes this thread only, which must be the one that calls execve.
	// Never unlocked: after a failure half-way the thread is left with fewer capabilities
	// than the others and must not run other goroutines.
	runtime.LockOSThread()
	fail := func(what string, err error) error {
		unix.CloseOnExec(fd)
		lf.Close()
		return fmt.Errorf("%s: %w", what, err)
	}
	bits := secbitNoroot | secbitNorootLocked | secbitNoSetuidFixup | secbitNoSetuidFixupLockd
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, uintptr(bits), 0, 0, 0); err != nil {
		return fail("securebits", err)
	}
	last := unix.CAP_LAST_CAP
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if want&(1<<uint(c)) != 0 {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fail(fmt.Sprintf("drop capability %d from the bounding set", c), err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	for i := range data {
		w := uint32(want >> (32 * i))
		data[i] = unix.CapUserData{Effective: w, Permitted: w, Inheritable: w}
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fail("capset", err)
	}
	for _, c := range keep {
		if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_RAISE, uintptr(c), 0, 0); err != nil {
			return fail(fmt.Sprintf("raise ambient capability %d", c), err)
		}
	}
	env := append(os.Environ(), serveListenFDEnv+"="+strconv.Itoa(fd))
	// /proc/self/exe: the binary this process runs, even if replaced on disk since.
	err = syscall.Exec("/proc/self/exe", os.Args, env)
	return fail("re-execute", err)
}

// checkCapabilities verifies, in the re-executed serve, that every thread has exactly keep.
func checkCapabilities(keep []int) error {
	want := capMask(keep)
	st, err := procCaps("/proc/self/status")
	if err != nil {
		return err
	}
	if st["CapEff"]&^want != 0 || st["CapPrm"]&^want != 0 || st["CapBnd"]&^want != 0 {
		return fmt.Errorf("capabilities after the drop: effective %#x, permitted %#x, bounding %#x; want %#x", st["CapEff"], st["CapPrm"], st["CapBnd"], want)
	}
	return nil
}
