package vm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Acceleration. /dev/kvm may exist and still not run a guest: on this project's build
// machine (a nested VM) KVM guests hang, or QEMU aborts on MSR 0x10a
// (IA32_ARCH_CAPABILITIES) that the outer hypervisor does not let it set. So KVM is used
// only after a short probe boot under it succeeded; the verdict is cached per host kernel
// and QEMU version (a new outer hypervisor or QEMU may change it), and TCG is the fallback.

// AccelEnv forces the accelerator ("kvm" or "tcg"), skipping the probe.
const AccelEnv = "HEADROOM_VM_ACCEL"

// kvmProbeTimeout bounds the probe boot: under KVM the kernel reaches its "no root" panic in
// about a second; a guest that did not within this is taken as hung.
const kvmProbeTimeout = 20 * time.Second

// AccelChoice is the accelerator chosen and why.
type AccelChoice struct {
	Accel  string `json:"accel"` // "kvm" or "tcg"
	Reason string `json:"reason"`
}

// kvmVerdict is the cached probe result (cache/kvm-probe.json).
type kvmVerdict struct {
	HostRelease string    `json:"host_release"`
	QEMU        string    `json:"qemu"`
	Usable      bool      `json:"usable"`
	Detail      string    `json:"detail"`
	Time        time.Time `json:"time"`
}

// accelInputs are what chooseAccel decides from; the probe is injected so the decision is
// tested without QEMU.
type accelInputs struct {
	Force       string
	DevKVM      bool
	HostRelease string
	QEMU        string
	Cached      *kvmVerdict
	Probe       func() (usable bool, detail string)
}

// chooseAccel decides, and returns the verdict to cache when a probe ran (nil otherwise).
func chooseAccel(in accelInputs) (AccelChoice, *kvmVerdict, error) {
	switch in.Force {
	case "kvm", "tcg":
		return AccelChoice{in.Force, AccelEnv + "=" + in.Force}, nil, nil
	case "":
	default:
		return AccelChoice{}, nil, fmt.Errorf("vm: %s=%q: want kvm or tcg", AccelEnv, in.Force)
	}
	if !in.DevKVM {
		return AccelChoice{"tcg", "no usable /dev/kvm"}, nil, nil
	}
	if c := in.Cached; c != nil && c.HostRelease == in.HostRelease && c.QEMU == in.QEMU {
		if c.Usable {
			return AccelChoice{"kvm", "KVM probe passed (cached " + c.Time.UTC().Format(time.RFC3339) + ")"}, nil, nil
		}
		return AccelChoice{"tcg", "KVM probe failed (cached " + c.Time.UTC().Format(time.RFC3339) + "): " + c.Detail}, nil, nil
	}
	if in.Probe == nil {
		return AccelChoice{"tcg", "KVM not probed (no kernel to probe with yet)"}, nil, nil
	}
	ok, detail := in.Probe()
	v := &kvmVerdict{HostRelease: in.HostRelease, QEMU: in.QEMU, Usable: ok, Detail: detail, Time: time.Now().UTC()}
	if ok {
		return AccelChoice{"kvm", "KVM probe passed: " + detail}, v, nil
	}
	return AccelChoice{"tcg", "KVM probe failed: " + detail}, v, nil
}

// ChooseAccel picks KVM or TCG for guests of this host, probing KVM once with vmlinuz (any
// present x86 kernel) and caching the verdict in cache.
func ChooseAccel(ctx context.Context, cache, qemu, vmlinuz string) (AccelChoice, error) {
	in := accelInputs{Force: os.Getenv(AccelEnv)}
	if f, err := os.OpenFile("/dev/kvm", os.O_RDWR, 0); err == nil {
		f.Close()
		in.DevKVM = true
	}
	in.HostRelease = hostRelease()
	in.QEMU = qemuVersion(qemu)
	p := filepath.Join(cache, "kvm-probe.json")
	if b, err := os.ReadFile(p); err == nil {
		var v kvmVerdict
		if json.Unmarshal(b, &v) == nil {
			in.Cached = &v
		}
	}
	if vmlinuz != "" {
		in.Probe = func() (bool, string) { return probeKVM(ctx, qemu, vmlinuz) }
	}
	c, v, err := chooseAccel(in)
	if err == nil && v != nil && ctx.Err() == nil {
		if b, err := json.MarshalIndent(v, "", "  "); err == nil {
			os.MkdirAll(cache, 0o755)
			os.WriteFile(p, b, 0o644)
		}
	}
	return c, err
}

func hostRelease() string {
	b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return strings.TrimSpace(string(b))
}

func qemuVersion(qemu string) string {
	out, err := exec.Command(qemu, "--version").Output()
	if err != nil {
		return ""
	}
	l, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(l)
}

// probeKVM boots vmlinuz under KVM without an initramfs: the kernel panics for want of a
// root file system, panic=-1 reboots at once and -no-reboot turns that into QEMU's exit.
// Reaching that panic within kvmProbeTimeout means KVM runs guests here.
func probeKVM(ctx context.Context, qemu, vmlinuz string) (bool, string) {
	ctx, cancel := context.WithTimeout(ctx, kvmProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, qemu, "-accel", "kvm", "-cpu", "host", "-m", "256", "-nodefaults", "-no-user-config",
		"-display", "none", "-serial", "stdio", "-no-reboot", "-kernel", vmlinuz,
		"-append", "console=ttyS0 panic=-1 loglevel=4")
	cmd.SysProcAttr = pdeathsig()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	done, waitErr, err := startLocked(cmd)
	if err != nil {
		return false, fmt.Sprintf("start qemu: %v", err)
	}
	<-done
	err = *waitErr
	took := time.Since(start).Round(time.Millisecond)
	text := out.String()
	switch {
	case ctx.Err() != nil:
		return false, fmt.Sprintf("no panic within %v (guest hung)", kvmProbeTimeout)
	case strings.Contains(text, "Kernel panic"):
		return true, fmt.Sprintf("kernel reached its no-root panic in %v", took)
	default:
		return false, fmt.Sprintf("qemu: %v: %s", err, lastLines(text, 3))
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}
