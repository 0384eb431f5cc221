package vm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Kernel is one kernel the lab can boot: a Debian image package of an architecture, with
// busybox-static of the same architecture for the guest's userland.
type Kernel struct {
	Name    string `json:"name"`     // "debian-6.1-amd64"
	GOARCH  string `json:"goarch"`   // the guest's Go architecture ("amd64", "386")
	DebArch string `json:"deb_arch"` // Debian's architecture ("amd64", "i386")
	// Meta is the metapackage whose dependency names the newest image package of the
	// series ("linux-image-amd64" depends on "linux-image-6.1.0-N-amd64").
	Meta string `json:"meta"`
	// Series is the release prefix the image package must have ("6.1."): a metapackage
	// from backports pointing at another series is refused rather than followed.
	Series  string `json:"series"`
	Summary string `json:"summary"`
}

var kernels = []Kernel{
	{Name: "debian-6.1-amd64", GOARCH: "amd64", DebArch: "amd64", Meta: "linux-image-amd64", Series: "6.1.",
		Summary: "Debian 12's 6.1 LTS kernel, x86-64"},
	{Name: "debian-6.1-686-pae", GOARCH: "386", DebArch: "i386", Meta: "linux-image-686-pae", Series: "6.1.",
		Summary: "Debian 12's 6.1 LTS kernel, 32-bit x86 with PAE and HighMem (lowmem ~860 MB)"},
}

// Kernels lists the kernels the lab knows.
func Kernels() []Kernel { return append([]Kernel(nil), kernels...) }

// LookupKernel finds a kernel by name.
func LookupKernel(name string) (Kernel, error) {
	for _, k := range kernels {
		if k.Name == name {
			return k, nil
		}
	}
	var names []string
	for _, k := range kernels {
		names = append(names, k.Name)
	}
	return Kernel{}, fmt.Errorf("vm: unknown kernel %q (known: %s)", name, strings.Join(names, ", "))
}

// CacheEnv overrides the cache directory.
const CacheEnv = "HEADROOM_VM_CACHE"

// DefaultCache is where kernels are unpacked unless CacheEnv says otherwise.
const DefaultCache = "/var/cache/headroom/vm"

// CacheDir is the kernel cache: $HEADROOM_VM_CACHE or /var/cache/headroom/vm.
func CacheDir() string {
	if d := os.Getenv(CacheEnv); d != "" {
		return d
	}
	return DefaultCache
}

// Status is a kernel's state in the cache.
type Status struct {
	Kernel
	Present bool   `json:"present"`
	Dir     string `json:"dir"`               // cache/<name>
	Package string `json:"package,omitempty"` // the image package unpacked there
	Version string `json:"version,omitempty"` // its Debian version ("6.1.192-2")
	Release string `json:"release,omitempty"` // uname -r ("6.1.0-56-amd64")
	Vmlinuz string `json:"vmlinuz,omitempty"`
	Busybox string `json:"busybox,omitempty"`
	Config  string `json:"config,omitempty"` // boot/config-<release>
	Fetched string `json:"fetched,omitempty"`
	Missing string `json:"missing,omitempty"` // why it is not present
}

// ModulesDir is lib/modules/<release> of the unpacked package.
func (s Status) ModulesDir() string { return filepath.Join(s.Dir, "root", "lib", "modules", s.Release) }

// cacheMeta is cache/<name>/meta.json, written last by Fetch.
type cacheMeta struct {
	Package        string    `json:"package"`
	Version        string    `json:"version"`
	Release        string    `json:"release"`
	Busybox        string    `json:"busybox_package"`
	BusyboxVersion string    `json:"busybox_version"`
	Fetched        time.Time `json:"fetched"`
}

// Stat reads k's state in cache.
func (k Kernel) Stat(cache string) Status {
	s := Status{Kernel: k, Dir: filepath.Join(cache, k.Name)}
	b, err := os.ReadFile(filepath.Join(s.Dir, "meta.json"))
	if err != nil {
		s.Missing = "not fetched (make vmkernels, or headroom lab kernels --fetch)"
		return s
	}
	var m cacheMeta
	if err := json.Unmarshal(b, &m); err != nil {
		s.Missing = fmt.Sprintf("meta.json: %v", err)
		return s
	}
	s.Package, s.Version, s.Release, s.Fetched = m.Package, m.Version, m.Release, m.Fetched.UTC().Format(time.RFC3339)
	s.Vmlinuz = filepath.Join(s.Dir, "root", "boot", "vmlinuz-"+m.Release)
	s.Config = filepath.Join(s.Dir, "root", "boot", "config-"+m.Release)
	s.Busybox = filepath.Join(s.Dir, "busybox", "bin", "busybox")
	for _, p := range []string{s.Vmlinuz, s.Busybox, s.ModulesDir()} {
		if _, err := os.Stat(p); err != nil {
			s.Missing = fmt.Sprintf("%s missing", p)
			return s
		}
	}
	s.Present = true
	return s
}

// StatAll reads every kernel's state.
func StatAll(cache string) []Status {
	var out []Status
	for _, k := range kernels {
		out = append(out, k.Stat(cache))
	}
	return out
}

// Fetch makes k present in cache: `apt-get download` of its image package and of
// busybox-static of its architecture, unpacked with `dpkg-deb -x` (never installed). A
// present kernel is left as it is (delete cache/<name> to refetch). The unpacked tree is
// built in a temporary directory inside cache and renamed into place, so a killed fetch
// leaves no half kernel (the next Fetch removes the temporary directory).
func Fetch(ctx context.Context, k Kernel, cache string, progress func(string)) (Status, error) {
	if s := k.Stat(cache); s.Present {
		return s, nil
	}
	if progress == nil {
		progress = func(string) {}
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return Status{}, fmt.Errorf("vm: cache %s: %w", cache, err)
	}
	// Leftovers of killed fetches of this kernel: ".fetch-<name>-<pid>-<random>" whose
	// process is gone (a concurrent fetch by a live process is left to finish).
	old, _ := filepath.Glob(filepath.Join(cache, ".fetch-"+k.Name+"-*"))
	for _, o := range old {
		rest := strings.TrimPrefix(filepath.Base(o), ".fetch-"+k.Name+"-")
		pid, _, _ := strings.Cut(rest, "-")
		if _, err := os.Stat("/proc/" + pid); pid == "" || err != nil {
			os.RemoveAll(o)
		}
	}
	tmp, err := os.MkdirTemp(cache, fmt.Sprintf(".fetch-%s-%d-", k.Name, os.Getpid()))
	if err != nil {
		return Status{}, fmt.Errorf("vm: %w", err)
	}
	defer os.RemoveAll(tmp)
	// apt drops privileges to _apt for downloads and warns when _apt cannot write here.
	os.Chmod(tmp, 0o755)
	pkg, err := imagePackage(ctx, k)
	if err != nil {
		return Status{}, err
	}
	bb := "busybox-static:" + k.DebArch
	progress(fmt.Sprintf("%s: apt-get download %s %s", k.Name, pkg, bb))
	if out, err := run(ctx, tmp, "apt-get", "download", pkg+":"+k.DebArch, bb); err != nil {
		return Status{}, fmt.Errorf("vm: apt-get download %s %s: %v: %s (is the %s architecture added? dpkg --add-architecture %s; apt-get update)", pkg, bb, err, out, k.DebArch, k.DebArch)
	}
	debs, _ := filepath.Glob(filepath.Join(tmp, "*.deb"))
	var imgDeb, bbDeb string
	for _, d := range debs {
		switch {
		case strings.HasPrefix(filepath.Base(d), pkg+"_"):
			imgDeb = d
		case strings.HasPrefix(filepath.Base(d), "busybox-static_"):
			bbDeb = d
		}
	}
	if imgDeb == "" || bbDeb == "" {
		return Status{}, fmt.Errorf("vm: apt-get download left %v in %s, want %s and busybox-static", debs, tmp, pkg)
	}
	m := cacheMeta{Package: pkg, Busybox: "busybox-static", Fetched: time.Now().UTC()}
	if m.Version, err = debField(ctx, imgDeb, "Version"); err != nil {
		return Status{}, err
	}
	if m.BusyboxVersion, err = debField(ctx, bbDeb, "Version"); err != nil {
		return Status{}, err
	}
	dst := filepath.Join(tmp, k.Name)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return Status{}, fmt.Errorf("vm: %w", err)
	}
	progress(fmt.Sprintf("%s: dpkg-deb -x %s (%s)", k.Name, filepath.Base(imgDeb), m.Version))
	if out, err := run(ctx, tmp, "dpkg-deb", "-x", imgDeb, filepath.Join(dst, "root")); err != nil {
		return Status{}, fmt.Errorf("vm: dpkg-deb -x %s: %v: %s", imgDeb, err, out)
	}
	if out, err := run(ctx, tmp, "dpkg-deb", "-x", bbDeb, filepath.Join(dst, "busybox")); err != nil {
		return Status{}, fmt.Errorf("vm: dpkg-deb -x %s: %v: %s", bbDeb, err, out)
	}
	rels, _ := os.ReadDir(filepath.Join(dst, "root", "lib", "modules"))
	if len(rels) != 1 {
		return Status{}, fmt.Errorf("vm: %s: want one lib/modules/<release>, got %d", imgDeb, len(rels))
	}
	m.Release = rels[0].Name()
	// Neither debs nor firmware are needed once unpacked; the modules stay (the guest
	// takes the few it needs).
	for _, d := range debs {
		os.Remove(d)
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dst, "meta.json"), b, 0o644); err != nil {
		return Status{}, fmt.Errorf("vm: %w", err)
	}
	final := filepath.Join(cache, k.Name)
	if err := os.RemoveAll(final); err != nil {
		return Status{}, fmt.Errorf("vm: %w", err)
	}
	if err := os.Rename(dst, final); err != nil {
		return Status{}, fmt.Errorf("vm: %w", err)
	}
	s := k.Stat(cache)
	if !s.Present {
		return s, fmt.Errorf("vm: %s fetched but not usable: %s", k.Name, s.Missing)
	}
	progress(fmt.Sprintf("%s: %s %s (%s) in %s", k.Name, s.Package, s.Version, s.Release, s.Dir))
	return s, nil
}

// imagePackage reads which image package k's metapackage depends on.
func imagePackage(ctx context.Context, k Kernel) (string, error) {
	out, err := run(ctx, "", "apt-cache", "depends", k.Meta+":"+k.DebArch)
	if err != nil {
		return "", fmt.Errorf("vm: apt-cache depends %s:%s: %v: %s", k.Meta, k.DebArch, err, out)
	}
	return parseImageDepends(out, k.Series)
}

// parseImageDepends finds "Depends: linux-image-<series>..." in apt-cache depends output.
func parseImageDepends(out []byte, series string) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	var seen []string
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || f[0] != "Depends:" {
			continue
		}
		p, _, _ := strings.Cut(f[1], ":")
		p = strings.Trim(p, "<>")
		seen = append(seen, p)
		if strings.HasPrefix(p, "linux-image-"+series) {
			return p, nil
		}
	}
	sort.Strings(seen)
	return "", fmt.Errorf("vm: no image package of series %s among the dependencies %v", series, seen)
}

func debField(ctx context.Context, deb, field string) (string, error) {
	out, err := run(ctx, "", "dpkg-deb", "-f", deb, field)
	if err != nil {
		return "", fmt.Errorf("vm: dpkg-deb -f %s %s: %v: %s", deb, field, err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

func run(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if errors.Is(err, exec.ErrNotFound) {
		return out, fmt.Errorf("%s not found (Debian's apt and dpkg are needed to fetch kernels)", name)
	}
	return out, err
}
