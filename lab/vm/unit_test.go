package vm

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cpioEntry is one entry as init/initramfs.c reads it.
type cpioEntry struct {
	name             string
	ino, mode, nlink uint64
	rmajor, rminor   uint64
	data             []byte
}

// readNewc parses a newc archive by the kernel's rules (init/initramfs.c: do_header reads
// the 110-byte header after "070701"; the name is padded with N_ALIGN(name_len) =
// ((name_len + 1) & ~3) + 2, i.e. header + name to a multiple of 4; the body is padded to
// 4 by do_skip's alignment in do_copy; "TRAILER!!!" ends it). It fails on anything the
// kernel would refuse or misread.
func readNewc(b []byte) ([]cpioEntry, error) {
	var out []cpioEntry
	off := 0
	for {
		if off%4 != 0 {
			return nil, fmt.Errorf("header at %d not 4-aligned", off)
		}
		if len(b)-off < cpioHeader {
			return nil, fmt.Errorf("truncated header at %d", off)
		}
		h := b[off : off+cpioHeader]
		if string(h[:6]) != cpioMagic {
			return nil, fmt.Errorf("bad magic %q at %d", h[:6], off)
		}
		var f [13]uint64
		for i := range f {
			v, err := strconv.ParseUint(string(h[6+8*i:14+8*i]), 16, 32)
			if err != nil {
				return nil, fmt.Errorf("field %d at %d: %v", i, off, err)
			}
			f[i] = v
		}
		namesize, size := int(f[11]), int(f[6])
		nameOff := off + cpioHeader
		// N_ALIGN as the kernel computes it, from the start of the header.
		dataOff := nameOff + ((namesize+1)&^3 + 2)
		if dataOff > len(b) || namesize == 0 || b[nameOff+namesize-1] != 0 {
			return nil, fmt.Errorf("bad name at %d", off)
		}
		name := string(b[nameOff : nameOff+namesize-1])
		for _, p := range b[nameOff+namesize : dataOff] {
			if p != 0 {
				return nil, fmt.Errorf("%s: non-zero name padding", name)
			}
		}
		if dataOff+size > len(b) {
			return nil, fmt.Errorf("%s: truncated data", name)
		}
		if name == cpioTrailer {
			return out, nil
		}
		out = append(out, cpioEntry{name: name, ino: f[0], mode: f[1], nlink: f[4], rmajor: f[9], rminor: f[10], data: b[dataOff : dataOff+size]})
		off = dataOff + size
		off = (off + 3) &^ 3
	}
}

func TestCPIOHeaderBytes(t *testing.T) {
	var buf bytes.Buffer
	c := NewCPIO(&buf)
	if err := c.File("/a", 0o644, []byte("xyz")); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// "a" at the root needs no parent directory; ino 1, mode 0100644, nlink 1, size 3,
	// namesize 2; name "a\0" pads 110+2 to 112; data "xyz" pads to 116.
	want := "070701" + "00000001" + "000081a4" + "00000000" + "00000000" + "00000001" + "00000000" + "00000003" +
		"00000000" + "00000000" + "00000000" + "00000000" + "00000002" + "00000000" + "a\x00" + "xyz\x00"
	if got := buf.String()[:len(want)]; got != want {
		t.Errorf("first entry\n got %q\nwant %q", got, want)
	}
	if !strings.HasSuffix(strings.TrimRight(buf.String(), "\x00"), cpioTrailer) || buf.Len()%4 != 0 {
		t.Errorf("archive does not end with an aligned trailer: %q", buf.String()[buf.Len()-20:])
	}
}

func TestCPIOKernelFormat(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	big := bytes.Repeat([]byte("0123456789abcdef"), 1000) // 16000 bytes
	if err := os.WriteFile(src, big, 0o600); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	c := NewCPIO(&buf)
	c.CharDev("/dev/console", 0o600, 5, 1)
	c.File("/etc/headroom/deep/x", 0o644, []byte("1"))
	c.File("/etc/headroom/y", 0o600, nil)
	c.CopyFile("/bin/big", src, 0)
	c.Symlink("/bin/sh", "busybox")
	c.Dir("/etc", 0o755)      // already there: no second entry
	for n := 1; n <= 7; n++ { // every name length mod 4
		c.File("/n/"+strings.Repeat("x", n), 0o644, []byte(strings.Repeat("d", n)))
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	es, err := readNewc(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	inos := map[uint64]bool{}
	byName := map[string]cpioEntry{}
	for _, e := range es {
		names = append(names, e.name)
		byName[e.name] = e
		if inos[e.ino] {
			t.Errorf("%s: inode %d reused (the kernel would link it)", e.name, e.ino)
		}
		inos[e.ino] = true
		if e.mode&0o170000 == modeFile && e.nlink != 1 {
			t.Errorf("%s: nlink %d", e.name, e.nlink)
		}
	}
	// Every parent before its children, once.
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("%s written twice", n)
		}
		if d := filepath.Dir(n); d != "." && !seen[d] {
			t.Errorf("%s before its directory %s", n, d)
		}
		seen[n] = true
	}
	if e := byName["dev/console"]; e.mode != modeCharDev|0o600 || e.rmajor != 5 || e.rminor != 1 {
		t.Errorf("console %+v", e)
	}
	if e := byName["bin/big"]; !bytes.Equal(e.data, big) || e.mode != modeFile|0o600 {
		t.Errorf("bin/big: %d bytes mode %o", len(e.data), e.mode)
	}
	if e := byName["bin/sh"]; string(e.data) != "busybox" || e.mode != modeSymlink|0o777 {
		t.Errorf("bin/sh %+v", e)
	}
	// And a real cpio reader agrees (busybox's, as in the guest), when present.
	bb, err := exec.LookPath("busybox")
	if err != nil {
		t.Log("busybox not installed: checked against the kernel's rules only")
		return
	}
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	cmd := exec.Command(bb, "cpio", "-i", "-d", "-m")
	cmd.Dir = out
	cmd.Stdin = bytes.NewReader(buf.Bytes())
	if b, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(b), "dev/console") {
		t.Fatalf("busybox cpio: %v: %s", err, b)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "bin/big")); !bytes.Equal(b, big) {
		t.Errorf("busybox extracted %d bytes of bin/big", len(b))
	}
	if l, _ := os.Readlink(filepath.Join(out, "bin/sh")); l != "busybox" {
		t.Errorf("busybox extracted bin/sh -> %q", l)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "n/xxxxxxx")); string(b) != "ddddddd" {
		t.Errorf("n/xxxxxxx = %q", b)
	}
}

func TestCPIOErrors(t *testing.T) {
	var buf bytes.Buffer
	c := NewCPIO(&buf)
	if err := c.File("/", 0o644, nil); err == nil {
		t.Error("root as a file accepted")
	}
	c = NewCPIO(&buf)
	c.Dir("/d", 0o755)
	if err := c.File("/d", 0o644, nil); err == nil {
		t.Error("a file over a directory accepted")
	}
	if err := c.Close(); err == nil {
		t.Error("error did not stick")
	}
	c = NewCPIO(&buf)
	if err := c.CopyFile("/x", "/nonexistent/file", 0); err == nil {
		t.Error("missing source accepted")
	}
}

func TestQEMUArgs(t *testing.T) {
	p := bootParams{Accel: "tcg", MemoryMiB: 2048, CPUs: 2, Vmlinuz: "/k", Initrd: "/i", Append: kernelCmdline([]string{"vm.min_free_kbytes=1024"}), NICs: 2, Share: "/s", Disks: []string{"/d0.img"}}
	a := strings.Join(qemuArgs(p), " ")
	for _, want := range []string{
		"-m 2048 -smp 2 -kernel /k -initrd /i",
		"-append console=ttyS0,115200 panic=-1 oops=panic rdinit=/init mitigations=off vm.min_free_kbytes=1024",
		"-accel tcg,thread=multi -cpu max",
		"-netdev tap,id=n0,fd=3,vhost=off -device virtio-net-pci,netdev=n0,mac=52:54:00:48:52:00",
		"-netdev tap,id=n1,fd=4,vhost=off -device virtio-net-pci,netdev=n1,mac=52:54:00:48:52:01",
		"-fsdev local,id=fs0,path=/s,security_model=none -device virtio-9p-pci,fsdev=fs0,mount_tag=hrshare",
		"-drive file=/d0.img,if=none,id=d0,format=raw,cache=unsafe -device virtio-blk-pci,drive=d0",
		"-no-reboot", "-serial stdio",
	} {
		if !strings.Contains(a, want) {
			t.Errorf("qemu args lack %q:\n%s", want, a)
		}
	}
	p.Accel, p.NICs, p.Share, p.Disks = "kvm", 0, "", nil
	a = strings.Join(qemuArgs(p), " ")
	if !strings.Contains(a, "-accel kvm -cpu host") || strings.Contains(a, "netdev") || strings.Contains(a, "fsdev") {
		t.Errorf("kvm, no NIC, no share:\n%s", a)
	}
}

func TestChooseAccel(t *testing.T) {
	probed := 0
	ok := func(v bool) func() (bool, string) {
		return func() (bool, string) { probed++; return v, "probe says " + strconv.FormatBool(v) }
	}
	now := time.Now()
	cases := []struct {
		name   string
		in     accelInputs
		want   string
		probes int
		cache  bool
		err    bool
	}{
		{"forced tcg", accelInputs{Force: "tcg", DevKVM: true, Probe: ok(true)}, "tcg", 0, false, false},
		{"forced kvm", accelInputs{Force: "kvm", Probe: ok(false)}, "kvm", 0, false, false},
		{"bad force", accelInputs{Force: "hvf"}, "", 0, false, true},
		{"no /dev/kvm", accelInputs{Probe: ok(true)}, "tcg", 0, false, false},
		{"probe passes", accelInputs{DevKVM: true, HostRelease: "6.18", QEMU: "7.2", Probe: ok(true)}, "kvm", 1, true, false},
		{"probe fails", accelInputs{DevKVM: true, HostRelease: "6.18", QEMU: "7.2", Probe: ok(false)}, "tcg", 1, true, false},
		{"cached failure", accelInputs{DevKVM: true, HostRelease: "6.18", QEMU: "7.2", Cached: &kvmVerdict{HostRelease: "6.18", QEMU: "7.2", Usable: false, Time: now}, Probe: ok(true)}, "tcg", 0, false, false},
		{"cached success", accelInputs{DevKVM: true, HostRelease: "6.18", QEMU: "7.2", Cached: &kvmVerdict{HostRelease: "6.18", QEMU: "7.2", Usable: true, Time: now}, Probe: ok(false)}, "kvm", 0, false, false},
		{"cache of another host kernel", accelInputs{DevKVM: true, HostRelease: "6.19", QEMU: "7.2", Cached: &kvmVerdict{HostRelease: "6.18", QEMU: "7.2", Usable: false, Time: now}, Probe: ok(true)}, "kvm", 1, true, false},
		{"cache of another qemu", accelInputs{DevKVM: true, HostRelease: "6.18", QEMU: "8.0", Cached: &kvmVerdict{HostRelease: "6.18", QEMU: "7.2", Usable: true, Time: now}, Probe: ok(false)}, "tcg", 1, true, false},
		{"nothing to probe with", accelInputs{DevKVM: true}, "tcg", 0, false, false},
	}
	for _, c := range cases {
		probed = 0
		got, v, err := chooseAccel(c.in)
		if (err != nil) != c.err || got.Accel != c.want || probed != c.probes || (v != nil) != c.cache {
			t.Errorf("%s: got %+v, verdict %v, %d probes, err %v; want %s, %d probes, cache %v", c.name, got, v, probed, err, c.want, c.probes, c.cache)
		}
		if v != nil && (v.HostRelease != c.in.HostRelease || v.QEMU != c.in.QEMU) {
			t.Errorf("%s: verdict keyed %q/%q", c.name, v.HostRelease, v.QEMU)
		}
	}
}

func TestParseModinfoDepends(t *testing.T) {
	b := []byte("license=GPL\x00depends=virtio,virtio_ring\x00retpoline=Y\x00name=virtio_net\x00")
	if got := parseModinfoDepends(b); !slices.Equal(got, []string{"virtio", "virtio_ring"}) {
		t.Errorf("got %v", got)
	}
	if got := parseModinfoDepends([]byte("depends=\x00name=virtio\x00")); len(got) != 0 {
		t.Errorf("empty depends: %v", got)
	}
	if modName("kernel/net/9p/9pnet-virtio.ko") != "9pnet_virtio" || modName("a/sch_fq.ko.xz") != "sch_fq" {
		t.Error("modName")
	}
}

func TestParseImageDepends(t *testing.T) {
	out := []byte("linux-image-686-pae:i386\n  Depends: linux-image-6.1.0-50-686-pae:i386\n")
	if p, err := parseImageDepends(out, "6.1."); err != nil || p != "linux-image-6.1.0-50-686-pae" {
		t.Errorf("got %q, %v", p, err)
	}
	out = []byte("linux-image-amd64\n  Depends: linux-image-6.12.48+deb12-amd64\n")
	if p, err := parseImageDepends(out, "6.1."); err == nil {
		t.Errorf("a 6.12 image taken for the 6.1 series: %q", p)
	}
}

func TestCheckSpec(t *testing.T) {
	good := Spec{MemoryMiB: 256, CPUs: 1}
	if err := checkSpec(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Spec{
		{MemoryMiB: 32, CPUs: 1},
		{MemoryMiB: 256, CPUs: 0},
		{MemoryMiB: 256, CPUs: 1, NICs: []NIC{{MTU: 70000}}},
		{MemoryMiB: 256, CPUs: 1, Env: map[string]string{"A B": "x"}},
		{MemoryMiB: 256, CPUs: 1, Cmdline: []string{"a b"}},
		{MemoryMiB: 256, CPUs: 1, Disks: []Disk{{SizeMiB: 0}}},
		{MemoryMiB: 256, CPUs: 1, Disks: []Disk{{SizeMiB: 8, Mount: "relative"}}},
		{MemoryMiB: 256, CPUs: 1, Disks: []Disk{{SizeMiB: 8, Mount: "/a b"}}},
	} {
		if err := checkSpec(bad); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}

func TestEnvFile(t *testing.T) {
	got := envFile(map[string]string{"B": "it's", "A": "1"})
	if got != "export A='1'\nexport B='it'\\''s'\n" {
		t.Errorf("got %q", got)
	}
}

func TestStatCache(t *testing.T) {
	cache := t.TempDir()
	for _, s := range StatAll(cache) {
		if s.Present || s.Missing == "" {
			t.Errorf("%s present in an empty cache: %+v", s.Name, s)
		}
	}
	k, _ := LookupKernel("debian-6.1-686-pae")
	dir := filepath.Join(cache, k.Name)
	rel := "6.1.0-50-686-pae"
	for _, p := range []string{"root/boot/vmlinuz-" + rel, "busybox/bin/busybox"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"package":"linux-image-6.1.0-50-686-pae","version":"6.1.176-1","release":"`+rel+`"}`), 0o644)
	if s := k.Stat(cache); s.Present || !strings.Contains(s.Missing, "lib/modules") {
		t.Errorf("kernel without modules counted present: %+v", s)
	}
	os.MkdirAll(filepath.Join(dir, "root/lib/modules", rel), 0o755)
	s := k.Stat(cache)
	if !s.Present || s.Version != "6.1.176-1" || s.Release != rel || s.Vmlinuz != filepath.Join(dir, "root/boot/vmlinuz-"+rel) {
		t.Errorf("%+v", s)
	}
	if _, err := LookupKernel("debian-0.1-vax"); err == nil || !strings.Contains(err.Error(), "debian-6.1-amd64") {
		t.Errorf("unknown kernel: %v", err)
	}
}

func TestModuleIndex(t *testing.T) {
	cache := CacheDir()
	k, _ := LookupKernel("debian-6.1-amd64")
	st := k.Stat(cache)
	if !st.Present {
		t.Skipf("kernel %s not in %s: run make vmkernels", k.Name, cache)
	}
	ix, err := loadModuleIndex(st.ModulesDir())
	if err != nil {
		t.Fatal(err)
	}
	mods, err := ix.resolve(append(baseModules, "sch_netem"))
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{}
	for i, m := range mods {
		pos[modName(m)] = i
	}
	// Dependencies first: virtio_net needs virtio and virtio_ring; 9p needs 9pnet and netfs.
	for _, dep := range [][2]string{{"virtio", "virtio_net"}, {"virtio_ring", "virtio_net"}, {"9pnet", "9p"}, {"netfs", "9p"}, {"9pnet", "9pnet_virtio"}} {
		a, okA := pos[dep[0]]
		b, okB := pos[dep[1]]
		if !okA || !okB || a > b {
			t.Errorf("%s (at %d, %v) must load before %s (at %d, %v): %v", dep[0], a, okA, dep[1], b, okB, mods)
		}
	}
	if _, ok := pos["sch_netem"]; !ok {
		t.Errorf("sch_netem not resolved: %v", mods)
	}
	if _, err := ix.resolve([]string{"no_such_module"}); err == nil {
		t.Error("unknown module accepted")
	}
}

func TestQdiscCommand(t *testing.T) {
	c, err := Qdisc{Dev: "eth0", Kind: "netem", Delay: 50 * time.Millisecond, Loss: 0.01}.Command()
	if err != nil {
		t.Fatal(err)
	}
	want := `HEADROOM_LAB_HELPER=vm-qdisc HEADROOM_LAB_HELPER_CONFIG='{"dev":"eth0","kind":"netem","delay_ns":50000000,"loss":0.01}' /bin/headroom`
	if c != want {
		t.Errorf("got  %s\nwant %s", c, want)
	}
	for _, bad := range []Qdisc{{Kind: "netem"}, {Dev: "eth0", Kind: "htb"}, {Dev: "eth0", Kind: "netem", Loss: 2}, {Dev: "eth0", Kind: "fq", Delay: time.Second}} {
		if _, err := bad.Command(); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
	if err := RunQdiscHelper([]byte("{")); err == nil {
		t.Error("bad JSON accepted")
	}
}
