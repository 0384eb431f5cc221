package artifact

import (
	"strings"
	"testing"
)

// fix38bUnread: how many lines ParseString lists as unread, and their reasons of the lines ParseString lists as unread, joined.
func fix38bUnread(text string) (int, string) {
	tl := ParseString(text, "t", Options{})
	var b strings.Builder
	for _, u := range tl.Unparsed {
		b.WriteString(u.Why)
		b.WriteString("\n")
	}
	return len(tl.Unparsed), b.String()
}

// fix38b: a directory or RADIUS server's own lines, and systemd's kill notice pasted
// without date or host, are named as unread; nothing is recorded from them.
func TestFix38bIdentityServerLinesNamedUnread(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"It will avoid invalid parameters for setsockopt() like:\n\n\"radius - Failed setting 'recv_buf': EINVAL: Invalid argument\"\n", "recv_buf/send_buf"},
		{"```\n[26/Feb/2025:18:53:36.970346565 +0000] - ERR - _spal_get_uint64_t_file - Unable to open file \"/sys/fs/cgroup/../system.slice/dirsrv@X.service/memory.max\". errno=2\n```\n", "389 Directory Server"},
		{"[26/Feb/2025:18:53:36.970911367 +0000] - WARN - spal_meminfo_get - Unable to retrieve /sys/fs/cgroup/x/memory.high. There may be no cgroup support on this platform\n", "389 Directory Server"},
		{"sssd service stops often. Below are the logs.\n\nsystemd[1]: sssd.service: Main process exited, code=killed, status=9/KILL\nsystemd[1]: sssd.service: Failed with result 'signal'.\n", "does not say who sent it"},
		{"| | node A | node B |\n|---|---|---|\n| Threads (nlwp) | 45,745 | 36,325 |\n| RSS | ~23.8 GiB | ~17.2 GiB |\n", whyStatedFigure},
	} {
		n, why := fix38bUnread(c.text)
		if n == 0 || !strings.Contains(why, c.want) {
			t.Errorf("%q: %d unread %q, want %q", c.text, n, why, c.want)
		}
		tl := ParseString(c.text, "t", Options{})
		if len(tl.RuntimeOOMs) != 0 || len(tl.Events) != 0 {
			t.Errorf("%q: a kill recorded: %+v %+v", c.text, tl.RuntimeOOMs, tl.Events)
		}
	}
	// Counter-cases: the words in a sentence, another option, the notice in a sentence, a
	// tilde that is a home directory, no figure: nothing is read, exit 3 stays.
	for _, text := range []string{
		"We should check whether Failed setting recv_buf happens on macOS.\n",
		"radius - Failed setting 'max_packet_size': EINVAL: Invalid argument\n",
		"radius - Failed setting 'recv_buf': see the docs\n",
		"The spal_meminfo_get function reads memory.max when cgroups exist.\n",
		"ns-slapd - Unable to open file \"/etc/dirsrv/slapd-x/dse.ldif\". errno=2\n",
		"the log says: Main process exited, code=killed, status=9/KILL\n",
		"systemd[1]: Started sssd.service.\n",
		"systemd[x]: sssd.service: Main process exited, code=killed, status=9/KILL\n",
		"Copy it to ~/memory and run it again, 2 times.\n",
	} {
		if n, why := fix38bUnread(text); n != 0 {
			t.Errorf("%q: %d unread %q, want none", text, n, why)
		}
	}
}
