package vm

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// File is a file put into the guest's initramfs: Data, or the host file Src.
type File struct {
	Path string      // absolute path in the guest
	Mode os.FileMode // permission bits (default 0644, or Src's)
	Data []byte
	Src  string
}

// Console markers /init prints on the serial console. The host reads them; they begin a
// line and name nothing a kernel prints.
const (
	markerReady = "HEADROOM-VM-READY" // userland is up, modules loaded, share mounted, NICs configured
	markerExit  = "HEADROOM-VM-EXIT"  // followed by the script's exit status
	markerError = "HEADROOM-VM-ERROR" // followed by what /init could not do
	markerPfx   = "HEADROOM-VM-"      // every marker
	guestShare  = "/share"            // the 9p share in the guest
	guestOut    = "/share/out"        // $OUT: the scenario's result files
	guestScript = "/scenario/run.sh"  // the scenario's script
	guestBin    = "/bin/headroom"     // the guest's headroom
	netConf     = "/etc/headroom/net" // one NIC a line: name address/len mtu
	modList     = "/etc/headroom/modules"
	diskConf    = "/etc/headroom/disks" // one disk a line: device [mount point]
)

// baseModules are loaded in every guest: Debian's 6.1 builds virtio, its PCI transport,
// virtio-net and 9p as modules (CONFIG_VIRTIO_PCI=m, CONFIG_VIRTIO_NET=m, CONFIG_9P_FS=m in
// boot/config-6.1.0-*); module dependencies (virtio_ring, netfs, 9pnet, ...) follow from
// .modinfo.
var baseModules = []string{"virtio_pci", "virtio_net", "9pnet_virtio", "9p"}

// diskModules are loaded when the guest has disks (CONFIG_VIRTIO_BLK=m, CONFIG_EXT4_FS=m
// with CONFIG_EXT4_USE_FOR_EXT2=y in Debian's 6.1 configs). ext4 asks the crypto API for
// crc32c at mount (fs/ext4/super.c: "Cannot load crc32c driver"), which nothing in the
// guest can autoload, so the generic one is loaded too (CONFIG_CRYPTO_CRC32C=m).
var diskModules = []string{"virtio_blk", "ext4", "crc32c_generic"}

// initScript is the guest's /init (busybox sh). It mounts the kernel's file systems, loads
// the modules, mounts the share, configures the NICs, prints the ready marker, runs the
// scenario's script with stdout and stderr in the share, writes the exit status and the
// whole kernel log there, and powers off. A failing step prints an error marker and powers
// off too: the host never waits for a guest that cannot run its script.
const initScript = `#!/bin/busybox sh
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run /share
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o size=64m tmpfs /tmp
mkdir -p /dev/pts /root && mount -t devpts devpts /dev/pts
die() { dmesg | tail -n 5; echo "` + markerError + ` $*"; sync; poweroff -f; sleep 60; echo o > /proc/sysrq-trigger; }
while read -r m; do
	[ -n "$m" ] || continue
	insmod "/lib/modules/$(uname -r)/$m" || die "insmod $m"
done < ` + modList + `
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none ` + shareTag + ` ` + guestShare + ` || die "mount 9p share"
mkdir -p ` + guestOut + `
ip link set lo up
while read -r dev addr mtu; do
	[ -n "$dev" ] || continue
	ip link set "$dev" mtu "$mtu" || die "mtu $mtu on $dev"
	ip addr add "$addr" dev "$dev" || die "address $addr on $dev"
	ip link set "$dev" up || die "up $dev"
done < ` + netConf + `
while read -r dev mnt; do
	[ -n "$dev" ] || continue
	[ -b "$dev" ] || die "no disk $dev"
	[ -n "$mnt" ] || continue
	mke2fs -q "$dev" || die "mke2fs $dev"
	mkdir -p "$mnt" && mount -t ext4 "$dev" "$mnt" || die "mount $dev on $mnt"
done < ` + diskConf + `
hostname guest
export OUT=` + guestOut + ` SHARE=` + guestShare + `
. /etc/headroom/env
echo "` + markerReady + ` $(uname -r) $(uname -m)"
cd /tmp
sh ` + guestScript + ` > ` + guestShare + `/stdout 2> ` + guestShare + `/stderr < /dev/null
rc=$?
dmesg > ` + guestShare + `/dmesg
echo $rc > ` + guestShare + `/exit
sync
umount ` + guestShare + `
echo "` + markerExit + ` $rc"
poweroff -f
sleep 60
echo o > /proc/sysrq-trigger
`

// initramfsSpec is what goes into one guest's initramfs.
type initramfsSpec struct {
	Busybox  string   // host path of the guest-arch busybox-static
	Headroom string   // host path of the guest-arch static headroom ("" to leave out)
	ModDir   string   // lib/modules/<release> of the unpacked image package
	Release  string   // <release>
	Modules  []string // module files relative to ModDir, in load order
	NICs     []NIC
	Disks    []Disk
	Env      map[string]string // exported to the script (/etc/headroom/env)
	Script   string
	Files    []File
}

// writeInitramfs writes the initramfs to dst.
func writeInitramfs(dst string, s initramfsSpec) error {
	f, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("vm: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	c := NewCPIO(w)
	for _, d := range []string{"/bin", "/sbin", "/dev", "/proc", "/sys", "/tmp", "/run", "/root", guestShare, "/etc/headroom", "/scenario"} {
		c.Dir(d, 0o755)
	}
	// The kernel opens /dev/console for init's stdin, stdout and stderr before devtmpfs is
	// mounted (init/main.c console_on_rootfs): without the node init runs without them.
	c.CharDev("/dev/console", 0o600, 5, 1)
	c.CharDev("/dev/null", 0o666, 1, 3)
	c.CopyFile("/bin/busybox", s.Busybox, 0o755)
	c.Symlink("/bin/sh", "busybox")
	c.File("/init", 0o755, []byte(initScript))
	if s.Headroom != "" {
		c.CopyFile(guestBin, s.Headroom, 0o755)
	}
	var mods strings.Builder
	for _, m := range s.Modules {
		c.CopyFile(path.Join("/lib/modules", s.Release, m), filepath.Join(s.ModDir, m), 0o644)
		mods.WriteString(m + "\n")
	}
	c.File(modList, 0o644, []byte(mods.String()))
	var nets strings.Builder
	for i, n := range s.NICs {
		fmt.Fprintf(&nets, "eth%d %s/%d %d\n", i, GuestAddr(i), netPrefixLen, n.mtu())
	}
	c.File(netConf, 0o644, []byte(nets.String()))
	var disks strings.Builder
	for i, d := range s.Disks {
		fmt.Fprintf(&disks, "/dev/vd%c %s\n", 'a'+i, d.Mount)
	}
	c.File(diskConf, 0o644, []byte(disks.String()))
	c.File("/etc/headroom/env", 0o644, []byte(envFile(s.Env)))
	c.File(guestScript, 0o755, []byte(s.Script))
	for _, fl := range s.Files {
		if !path.IsAbs(fl.Path) {
			c.Close()
			f.Close()
			return fmt.Errorf("vm: guest file %q: want an absolute path", fl.Path)
		}
		if fl.Src != "" {
			c.CopyFile(fl.Path, fl.Src, fl.Mode)
		} else {
			m := fl.Mode
			if m == 0 {
				m = 0o644
			}
			c.File(fl.Path, m, fl.Data)
		}
	}
	err = c.Close()
	if e := w.Flush(); err == nil && e != nil {
		err = e
	}
	if e := f.Close(); err == nil && e != nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("vm: initramfs %s: %w", dst, err)
	}
	return nil
}

// envFile renders the script's environment as sh assignments, single-quoted.
func envFile(env map[string]string) string {
	var keys []string
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "export %s=%s\n", k, shQuote(env[k]))
	}
	return b.String()
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
