package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Round 9, fixed by class (fix14b): desktop memory managers' own logs. Snippets written for
// each class from the program's source (systemd src/oom/oomd-manager.c and oomd-util.c),
// not copied from a case.

func lowMemKills(tl *model.Timeline) []model.RuntimeOOM {
	var out []model.RuntimeOOM
	for _, o := range tl.RuntimeOOMs {
		if o.Scope == model.OOMScopeLowMemKiller {
			out = append(out, o)
		}
	}
	return out
}

func TestOomdKillForms(t *testing.T) {
	cases := []struct {
		name, text, victim, reporter string
	}{
		{name: "memory and swap used (v249-v255)",
			text:   "Feb  2 08:00:01 box systemd-oomd[901]: Killed /user.slice/u.slice/app-a.scope due to memory used (7900000000) / total (8000000000) and swap used (1900000000) / total (2000000000) being more than 90.00%\n",
			victim: "/user.slice/u.slice/app-a.scope", reporter: "systemd-oomd (memory used)"},
		{name: "marked for killing (v256+)",
			text:   "Feb  2 08:00:01 box systemd-oomd[901]: Marked /user.slice/u.slice/app-b.scope for killing due to memory pressure for /user.slice/u.slice being 71.02% > 50.00% for > 20s with reclaim activity\n",
			victim: "/user.slice/u.slice/app-b.scope", reporter: "systemd-oomd (marked for killing: memory pressure)"},
		{name: "bare kill, journal without a host, another locale",
			text:   "févr. 02 08:00:01 systemd-oomd[901]: Killed /user.slice/u.slice/app-c.scope\n",
			victim: "/user.slice/u.slice/app-c.scope", reporter: "systemd-oomd"},
		{name: "indented as a Markdown code block, another locale",
			text:   "    avril 02 08:00:01 systemd-oomd[901]: Killed /user.slice/u.slice/app-e.scope\n",
			victim: "/user.slice/u.slice/app-e.scope", reporter: "systemd-oomd"},
		{name: "journal without a host, English",
			text:   "Feb 02 08:00:01 systemd-oomd[901]: Killed /user.slice/app-d.scope due to memory pressure for /user.slice being 80.00% > 50.00% for > 20s with reclaim activity\n",
			victim: "/user.slice/app-d.scope", reporter: "systemd-oomd (memory pressure)"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		ks := lowMemKills(tl)
		if len(ks) != 1 || ks[0].Victim != c.victim || ks[0].Reporter != c.reporter {
			t.Errorf("%s: kills %+v, want one of %s by %q", c.name, ks, c.victim, c.reporter)
		}
		checkAccount(t, tl)
	}
}

// Counter-cases: oomd's lines that are no kill, another program's "Killed" line, and a host
// name that is a word before a colon.
func TestOomdNonKillsNamedNotKills(t *testing.T) {
	cases := []struct {
		name, text string
		unread     bool
	}{
		{name: "pressure trigger (v247)", unread: true,
			text: "Mar  1 01:00:00 box systemd-oomd[77]: Memory pressure for /user.slice/user-1000.slice is greater than 10 for more than 10 seconds and there was reclaim activity\n"},
		{name: "candidates dump without a host", unread: true,
			text: "May 01 01:00:00 systemd-oomd[77]: Considered 12 cgroups for killing, top candidates were:\nMay 01 01:00:00 systemd-oomd[77]:         Path: /system.slice/x.service\nMay 01 01:00:00 systemd-oomd[77]:                 Pressure: Avg10: 40.00 Avg60: 30.00 Avg300: 10.00 Total: 2min\n"},
		{name: "dry run", unread: true,
			text: "Mar  1 01:00:00 box systemd-oomd[77]: oomd dry-run: Would have tried to kill /user.slice/x.scope with recurse=true\n"},
		{name: "another program's Killed", unread: false,
			text: "Mar  1 01:00:00 box bash[77]: Killed /home/u/run.sh due to memory pressure\n"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if ks := lowMemKills(tl); len(ks) != 0 {
			t.Errorf("%s: read as kills %+v", c.name, ks)
		}
		if got := len(tl.Unparsed) > 0; got != c.unread {
			t.Errorf("%s: named unread %v, want %v (%+v)", c.name, got, c.unread, tl.Unparsed)
		}
		for _, u := range tl.Unparsed {
			if c.unread && !strings.Contains(u.Why, "systemd-oomd") {
				t.Errorf("%s: unread for %q, want systemd-oomd named", c.name, u.Why)
			}
		}
		checkAccount(t, tl)
	}
}

func TestHostIsTag(t *testing.T) {
	for s, want := range map[string]bool{
		"systemd-oomd[93234]:": true, "earlyoom[1]:": true,
		"box": false, "box:": false, "[1]:": false, "fe80::1:": false, "host[x]": false,
	} {
		if got := hostIsTag(s); got != want {
			t.Errorf("hostIsTag(%q) = %v, want %v", s, got, want)
		}
	}
}

// nohang's lines with a PSI value (its source's formats, 2019-2020) are read as the daemon's
// memory PSI; its thresholds and its other lines are not.
func TestNohangPSILines(t *testing.T) {
	cases := []struct {
		name, text string
		want       float64
		read       bool
	}{
		{name: "trigger", read: true, want: 71.25,
			text: "Mar  3 10:00:00 pc nohang[12]: PSI avg (71.25) > sigkill_psi_threshold (70.0)\n"},
		{name: "report 2019", read: true, want: 12.5,
			text: "Mar  3 10:00:00 pc nohang[12]: PSI avg:  12.50 | MemAvail: 812 M, 10.1 % | SwapFree: 0 M,   0.0 % | dMem:    -3 M/s\n"},
		{name: "report 2020", read: true, want: 3,
			text: "Mar  3 10:00:00 pc nohang[12]: PSI:   3.00 | MemAvail: 812 M, 10.1 % | SwapFree: 100 M, 50.0 %\n"},
		{name: "threshold setting", text: "Mar  3 10:00:00 pc nohang[12]:     sigterm_psi_threshold:   60.0\n"},
		{name: "timer", text: "Mar  3 10:00:00 pc nohang[12]: psi_term_exceeded_timer: 66.2\n"},
		{name: "another program's words", text: "Mar  3 10:00:00 pc myapp[12]: PSI avg (71.25) > sigkill_psi_threshold (70.0)\n"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		v, ok := statedKey(tl, model.RateDaemonMemPSIPct)
		if ok != c.read || ok && v != c.want {
			t.Errorf("%s: PSI %v %v, want %v %v", c.name, v, ok, c.want, c.read)
		}
		checkAccount(t, tl)
	}
}

// netty's native errors append strerror to the message after a space; nohang's
// configuration check (-cc) is a domain command whose WARNING lines are its output. Both are
// named unread, nothing is read from them.
func TestNettyErrnoAndNohangCheckNamedUnread(t *testing.T) {
	cases := []struct {
		name, text, why string
	}{
		{name: "netty errno", why: "ENOMEM",
			text: "java.lang.RuntimeException: failed to create epoll fd Cannot allocate memory\n\tat io.netty.channel.epoll.Native.epollCreate(Native Method)\n"},
		{name: "nohang -cc", why: "nohang -cc",
			text: "`nohang -cc /etc/nohang/test.conf`:\n```\nWARNING: cannot read /proc/pressure/memory: [Errno 2] No such file or directory\n```\n"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, c.why) {
			t.Errorf("%s: unread %+v, want one naming %q", c.name, tl.Unparsed, c.why)
		}
		if len(tl.Samples) != 0 {
			t.Errorf("%s: samples %+v, want none", c.name, tl.Samples)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: the errno's text inside the message, not ending it; a WARNING under
	// another command is the author's or that tool's sentence.
	for _, text := range []string{
		"java.lang.RuntimeException: failed to map ring Cannot allocate memory was not the cause\n",
		"`nohang --version`:\nWARNING: this is what I see: [Errno 2] No such file or directory\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.Unparsed) != 0 {
			t.Errorf("%q: unread %+v, want none", text, tl.Unparsed)
		}
	}
}
