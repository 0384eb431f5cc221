// Package privdrop drops a process's capabilities to a kept few by re-executing it, handing
// the new image an open listening socket: headroom serve listens as root (a port below 1024
// works), then keeps CAP_SYSLOG alone (export.KeepCaps says why that one), handing the
// new image any other descriptors it must keep (serve --trace's tracefs).
//
// Capabilities are per thread (capset(2) changes the calling thread's), and a Go program
// has several threads before main runs; syscall.AllThreadsSyscall would reach them all but
// returns ENOTSUP in a cgo-linked binary. So the process drops them the way a shell's capsh
// --secbits --caps --addamb -- -c would: after it listens, on one locked thread it locks the
// securebits NOROOT and NO_SETUID_FIXUP (uid 0 gains nothing at execve,
// include/uapi/linux/securebits.h), empties the bounding set but for the
// kept capabilities, sets permitted, effective and inheritable to them, raises them as
// ambient, and re-executes itself with the listening socket inherited. The new image starts
// with exactly the ambient set (security/commoncap.c cap_bprm_creds_from_file: no file
// capabilities, root not special, P'(permitted) = P'(ambient)).
package privdrop

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

// ListenFDEnv names the inherited listening socket of the re-executed process.
const ListenFDEnv = "HEADROOM_SERVE_LISTEN_FD"

// Securebits (include/uapi/linux/securebits.h).
const (
	secbitNoroot             = 1 << 0
	secbitNorootLocked       = 1 << 1
	secbitNoSetuidFixup      = 1 << 2
	secbitNoSetuidFixupLockd = 1 << 3
)

// mask is the capability bit mask of caps.
func mask(caps []int) uint64 {
	var m uint64
	for _, c := range caps {
		m |= 1 << uint(c)
	}
	return m
}

// ProcCaps reads the Cap* lines of a /proc/PID/status or /proc/PID/task/TID/status file.
func ProcCaps(path string) (map[string]uint64, error) {
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

// InheritedListener returns the listening socket a re-executed process was handed, or nil.
func InheritedListener() (net.Listener, error) {
	v, ok := os.LookupEnv(ListenFDEnv)
	if !ok {
		return nil, nil
	}
	os.Unsetenv(ListenFDEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%s=%q: not a descriptor", ListenFDEnv, v)
	}
	unix.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "listener")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("%s=%d: %w", ListenFDEnv, fd, err)
	}
	return ln, nil
}

// Drop re-executes the process with only keep when it has more (as root, or given extra
// capabilities). It returns only when there is nothing to drop (nil) or when dropping
// failed (the error; the caller then runs on, and says so). ln is handed to the new image,
// and so are files (close-on-exec cleared; the caller names them to the new image in its
// environment; close-on-exec is set again when the drop fails).
func Drop(ln net.Listener, keep []int, files ...*os.File) error {
	want := mask(keep)
	st, err := ProcCaps("/proc/self/status")
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
		for _, f := range files {
			unix.CloseOnExec(int(f.Fd()))
		}
		lf.Close()
		return fmt.Errorf("%s: %w", what, err)
	}
	for _, f := range files {
		if _, err := unix.FcntlInt(f.Fd(), unix.F_SETFD, 0); err != nil {
			return fail("clear close-on-exec", err)
		}
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
	env := append(os.Environ(), ListenFDEnv+"="+strconv.Itoa(fd))
	// /proc/self/exe: the binary this process runs, even if replaced on disk since.
	err = syscall.Exec("/proc/self/exe", os.Args, env)
	return fail("re-execute", err)
}

// Check verifies, in the re-executed process, that every thread has exactly keep.
func Check(keep []int) error {
	want := mask(keep)
	st, err := ProcCaps("/proc/self/status")
	if err != nil {
		return err
	}
	if st["CapEff"]&^want != 0 || st["CapPrm"]&^want != 0 || st["CapBnd"]&^want != 0 {
		return fmt.Errorf("capabilities after the drop: effective %#x, permitted %#x, bounding %#x; want %#x", st["CapEff"], st["CapPrm"], st["CapBnd"], want)
	}
	return nil
}
