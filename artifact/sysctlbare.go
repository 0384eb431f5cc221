package artifact

import (
	"strings"

	"headroom/kernel"
)

// A list of sysctl settings written "key value" without the '=' sysctl.conf and sysctl -a
// put between them ("net.ipv4.tcp_mem 786432 1048576 26777216", a key and its numbers on a
// line of their own, one setting a line), as a mail reply or a forum post gives an author's
// settings: the '=' dropped by a mail client or the author, the lines often double-spaced,
// and now and then an underscore of a key turned into a space ("net.core.netdev_max
// backlog 100000", "vm.min_free kbytes 65536"). Such a line is the author's settings
// (what sysctl.conf would hold), so it is read as a sysctl.conf line; its numbers are the
// values. Only a line that holds nothing else is read: a known key (kernel.SysctlNote)
// then one to three integers, the count a key holds (tcp_mem's and tcp_rmem's three). A
// sentence that names a key and a number ("net.core.somaxconn 1024 is too low"), a value
// with a unit or a word, or a key the kernel does not have stays prose (sysctl.go's prose
// reading). The '=' form is trySysctl's.

// isBareSysctlLine is the registry's detect: a line whose first field is a dotted key in a
// Linux sysctl tree, with no '=' (trySysctl's form), and that bareSysctl reads.
func isBareSysctlLine(ft, t string) bool {
	if strings.IndexByte(ft, '.') <= 0 || strings.IndexByte(t, '=') >= 0 {
		return false
	}
	_, _, _, ok := bareSysctl(t)
	return ok
}

// bareSysctl reads a "key value" line: the key as the kernel names it, as written, and
// the values joined by one space.
func bareSysctl(t string) (key, written, value string, ok bool) {
	f := fields(t)
	if len(f) < 2 || len(f) > 5 || !linuxSysctlTree(f[0]) {
		return "", "", "", false
	}
	written, rest := f[0], f[1:]
	key = kernel.NormaliseSysctlKey(written)
	if _, known := kernel.SysctlNote(key); !known {
		// An underscore the text turned into a space: the key's last word is the next
		// field ("net.core.netdev_max backlog 100000"), and only when the two make a
		// key the kernel has.
		if !bareKeyWord(rest[0]) {
			return "", "", "", false
		}
		k := key + "_" + rest[0]
		if _, known := kernel.SysctlNote(k); !known {
			return "", "", "", false
		}
		key, written, rest = k, written+" "+rest[0], rest[1:]
	}
	if len(rest) == 0 || len(rest) > 3 {
		return "", "", "", false
	}
	for _, v := range rest {
		if !isDigits(strings.TrimPrefix(v, "-")) {
			return "", "", "", false
		}
	}
	return key, written, strings.Join(rest, " "), true
}

// linuxSysctlTree: the key's first component is one of /proc/sys's top-level directories.
func linuxSysctlTree(key string) bool {
	top, _, ok := strings.Cut(key, ".")
	if !ok {
		top, _, ok = strings.Cut(key, "/")
	}
	if !ok {
		return false
	}
	switch top {
	case "net", "vm", "kernel", "fs", "dev", "abi", "user", "sunrpc", "crypto", "debug":
		return true
	}
	return false
}

// bareKeyWord: a lower-case word that can end a sysctl key ("backlog", "kbytes", "buckets").
func bareKeyWord(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return w[0] >= 'a' && w[0] <= 'z'
}

// tryBareSysctl reads a run of "key value" lines, blank lines between them allowed (a
// double-spaced list), as one block of sysctl.conf settings.
func (d *doc) tryBareSysctl(i int) int {
	var sds []SettingData
	var lines []int
	end := i
	for k := i; k < len(d.ls); k++ {
		t := d.ls[k].Text
		if strings.TrimSpace(t) == "" {
			continue
		}
		key, written, val, ok := bareSysctl(t)
		if !ok {
			break
		}
		sds = append(sds, settingData(key, written, val, "sysctl.conf"))
		lines = append(lines, d.ls[k].No)
		end = k + 1
	}
	if len(sds) == 0 {
		return 0
	}
	blk := SysctlBlock{Form: "sysctl.conf", Count: len(sds), Settings: sds}
	for j := range sds {
		d.addSetting(sds[j], lines[j])
	}
	d.segSeq++
	d.addArtifact(KindSysctl, d.ls[i].No, d.ls[end-1].No, blk)
	return end - i
}
