package artifact

import "strings"

// fix38b (round 33, g147, identity and directory servers): a directory or RADIUS server's
// own line about its socket buffer or its cgroup memory files, which said nothing headroom
// reads, made a text exit 3 ("nothing is evidence") though it is the host's program
// speaking. Each is named as unread with what it proves; nothing is diagnosed from it.

// radiusSockBufFailed: FreeRADIUS's rlm_radius_udp / proto listeners failing to apply the
// configured recv_buf / send_buf ("radius - Failed setting 'recv_buf': EINVAL: Invalid
// argument", src/modules/rlm_radius/rlm_radius_udp.c: setsockopt(SO_RCVBUF/SO_SNDBUF) then
// ERROR("Failed setting 'recv_buf': %s", fr_syserror(errno))). The call was refused (EINVAL:
// an invalid size such as 0 on some systems); no datagram was dropped and no buffer filled.
// Gate: the quoted option name then "': " and an errno word in the same line.
func radiusSockBufFailed(t string) bool {
	k := strings.Index(t, "Failed setting '")
	if k < 0 || len(t) > maxErrnoLineBytes {
		return false
	}
	rest := t[k+len("Failed setting '"):]
	if !strings.HasPrefix(rest, "recv_buf': ") && !strings.HasPrefix(rest, "send_buf': ") {
		return false
	}
	rest = rest[len("recv_buf': "):]
	return strings.HasPrefix(rest, "E") && len(rest) > 1 && rest[1] >= 'A' && rest[1] <= 'Z'
}

const whyRadiusSockBufFailed = "FreeRADIUS could not apply its configured recv_buf/send_buf (rlm_radius_udp: setsockopt(SO_RCVBUF/SO_SNDBUF) failed with the errno shown): a configuration value the kernel refused, no socket buffer overflow and no drop counter"

// dirsrvCgroupMemFile: 389 Directory Server's system-abstraction layer failing to read its
// cgroup memory files (ldap/servers/slapd/slapi_pal.c: _spal_get_uint64_t_file "Unable to
// open file \"%s\". errno=%d", spal_meminfo_get "Unable to retrieve %s. There may be no
// cgroup support on this platform"): a lookup of memory.current / memory.max /
// memory.high that failed (errno 2: the path does not exist), after which it sizes its
// caches from /proc/meminfo. No figure of memory and no pressure.
func dirsrvCgroupMemFile(t string) bool {
	k := strings.Index(t, "spal_")
	if k < 0 || len(t) > maxErrnoLineBytes {
		return false
	}
	rest := t[k:]
	if strings.HasPrefix(rest, "spal_get_uint64_t_file - Unable to open file ") {
		return strings.Contains(rest, "/memory.") && strings.Contains(rest, "errno=")
	}
	return strings.HasPrefix(rest, "spal_meminfo_get - Unable to retrieve ") && strings.Contains(rest, "/memory.")
}

const whyDirsrvCgroupMemFile = "389 Directory Server could not read its cgroup memory file (slapi_pal.c _spal_get_uint64_t_file / spal_meminfo_get; errno 2: no such file): a failed lookup, after which it sizes its caches from /proc/meminfo; no memory figure and no pressure"

// journalSystemdLine: a journal line pasted without date or host, "systemd[1]: UNIT: MSG"
// (journalctl -o cat keeps the tag when copied from a terminal): the message after the tag.
func journalSystemdLine(t string) (string, bool) {
	if !strings.HasPrefix(t, "systemd[") {
		return "", false
	}
	rest := t[len("systemd["):]
	j := strings.Index(rest, "]: ")
	if j <= 0 || j > 10 {
		return "", false
	}
	for _, c := range rest[:j] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return rest[j+len("]: "):], true
}
