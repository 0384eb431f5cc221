package artifact

import "strings"

// fix30a (corpus 2564): a program's write refused with ENOSPC ("No space left on device") on
// a file system whose pages are RAM. A tmpfs (mm/shmem.c) holds its files in page cache and
// swap, up to its size= (half the RAM by default): /dev/shm and /run on every Linux, /tmp on
// many, and /var and /tmp on router firmware (Asuswrt-Merlin, OpenWrt, DD-WRT, FreshTomato,
// Gargoyle mount them in RAM; dnsmasq's lease file lives there). Such a line is evidence of
// the host's memory headroom cannot read (the tmpfs's size and use are df's, not the
// kernel's free memory): listed as unread, never read as an allocation failure or an OOM.
// Counter-cases: ENOSPC on a disk's path (/home, /var/log, /mnt: no memory), the words in a
// sentence without a log record's path, another errno on a tmpfs path.

const enospc = "No space left on device"

// tmpfsPrefixes: the mounts that are tmpfs by convention on Linux (the FHS's /run and
// /dev/shm, systemd's /tmp.mount) and /var/run and /var/lock, links into /run.
var tmpfsPrefixes = []string{"/dev/shm/", "/run/", "/tmp/", "/var/run/", "/var/lock/"}

const tmpfsNoSpaceWhy = "a write refused with ENOSPC (No space left on device) on a tmpfs path (/dev/shm, /run, /tmp, /var/run): the tmpfs is at its size= limit; its files are RAM (shmem, page cache and swap, counted as Shmem in /proc/meminfo), so what fills it is memory the host cannot reclaim while the files stay; not an allocation failure nor an OOM kill; headroom has no reader for file systems' space (df -h shows the mount)"

// dnsmasqLeaseNoSpaceWhy: dnsmasq's lease file write, lease.c lease_update_file: my_syslog(MS_DHCP
// | LOG_ERR, "failed to write %s: %s (retry in %u s)", lease_file, strerror(err), ...).
const dnsmasqLeaseNoSpaceWhy = "dnsmasq could not write its DHCP lease file (lease.c lease_update_file: \"failed to write FILE: No space left on device (retry in N s)\"): the file system holding it is full; on router firmware (Asuswrt-Merlin, OpenWrt, DD-WRT, FreshTomato) /var and /tmp are a tmpfs in RAM, so RAM-backed space ran out (on a server with /var on disk, the disk); not an allocation failure nor an OOM kill; headroom has no reader for file systems' space (df -h on the router shows the mount)"

// tmpfsNoSpaceLine: t is a log record of ENOSPC on a path under tmpfsPrefixes; the path
// stands before strerror's ": " in the same record.
func tmpfsNoSpaceLine(t string) bool {
	k := strings.Index(t, enospc)
	if k < 2 || t[k-2:k] != ": " || len(t) > maxErrnoLineBytes {
		return false
	}
	head := t[:k]
	for _, p := range tmpfsPrefixes {
		if j := strings.Index(head, p); j >= 0 && (j == 0 || strings.IndexByte(" '\"`(=", head[j-1]) >= 0) {
			return true
		}
	}
	return false
}

// dnsmasqLeaseNoSpace: dnsmasq's (or dnsmasq-dhcp's) lease file write failed with ENOSPC.
func dnsmasqLeaseNoSpace(tag, t string) bool {
	if !strings.HasPrefix(tag, "dnsmasq") {
		return false
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(t), "failed to write /")
	if !ok {
		return false
	}
	k := strings.Index(rest, ": "+enospc)
	return k > 0 && !strings.ContainsAny(rest[:k], " \t")
}

// tmpfsNoSpaceHanded: a program's syslog line that may be tmpfsNoSpaceLine's or
// dnsmasqLeaseNoSpace's, handed to the line pass (readsTag); the errno's text is rare.
func tmpfsNoSpaceHanded(l *Line) bool {
	return !l.Kernel && strings.Contains(l.Text, enospc)
}
