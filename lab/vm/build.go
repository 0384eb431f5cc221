package vm

import (
	"context"
	"debug/elf"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BinEnv names a directory holding prebuilt guest binaries, headroom-<GOARCH> (make
// vmlab and make check build them once for every run).
const BinEnv = "HEADROOM_VM_BIN"

// GuestHeadroom returns a static headroom for goarch: $HEADROOM_VM_BIN/headroom-<goarch>
// if set; this executable when it is a static headroom of that architecture; otherwise
// one built from the source tree this process runs in (go build with CGO_ENABLED=0, into
// cache/bin, rebuilt on every call: Go's build cache makes that a few seconds when nothing
// changed, and a stale guest binary would test old code).
func GuestHeadroom(ctx context.Context, goarch, cache string) (string, error) {
	if d := os.Getenv(BinEnv); d != "" {
		p := filepath.Join(d, "headroom-"+goarch)
		if err := checkStatic(p, goarch); err != nil {
			return "", err
		}
		return p, nil
	}
	if self, err := os.Executable(); err == nil && filepath.Base(self) == "headroom" && checkStatic(self, goarch) == nil {
		return self, nil
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return "", fmt.Errorf("vm: no static headroom for %s: set %s to a directory with headroom-%s, or run from the source tree (%v)", goarch, BinEnv, goarch, err)
	}
	dir := filepath.Join(cache, "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("vm: %w", err)
	}
	out := filepath.Join(dir, "headroom-"+goarch)
	if err := BuildHeadroom(ctx, root, goarch, out); err != nil {
		return "", err
	}
	return out, nil
}

// BuildHeadroom builds ./cmd/headroom of the module at root, statically, for goarch.
func BuildHeadroom(ctx context.Context, root, goarch, out string) error {
	tmp := fmt.Sprintf("%s.tmp-%d", out, os.Getpid()) // concurrent runs each build their own
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, "./cmd/headroom")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+goarch)
	if b, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("vm: go build headroom for %s: %v: %s", goarch, err, b)
	}
	return os.Rename(tmp, out)
}

// moduleRoot finds the headroom module's directory from the working directory.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	b, err := os.ReadFile(mod)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(string(b), "module headroom\n") {
		return "", fmt.Errorf("%s is not headroom's module", mod)
	}
	return filepath.Dir(mod), nil
}

// checkStatic says why p is not a static ELF executable for goarch (nil: it is).
func checkStatic(p, goarch string) error {
	f, err := elf.Open(p)
	if err != nil {
		return fmt.Errorf("vm: guest binary %s: %w", p, err)
	}
	defer f.Close()
	want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "386": elf.EM_386}[goarch]
	if f.Machine != want {
		return fmt.Errorf("vm: guest binary %s is for %v, want %s", p, f.Machine, goarch)
	}
	for _, pr := range f.Progs {
		if pr.Type == elf.PT_INTERP {
			return fmt.Errorf("vm: guest binary %s is dynamically linked (build it with CGO_ENABLED=0)", p)
		}
	}
	return nil
}

func netipPrefix(a netip.Addr, bits int) *net.IPNet {
	return &net.IPNet{IP: a.AsSlice(), Mask: net.CIDRMask(bits, a.BitLen())}
}
