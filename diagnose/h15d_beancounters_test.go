package diagnose

import (
	"slices"
	"strings"
	"testing"
)

// Pre-round 15 (h15d): OpenVZ/Virtuozzo's /proc/user_beancounters (OpenVZ kernel/bc/proc.c:
// "Version: 2.5", the header, rows "%10s%c %-12s %20lu ..." with the container's "N:" on its
// first row; ub_rnames for the names). Written from the format, no case read.

const h15dUBCHeader = "Version: 2.5\n" +
	"       uid  resource                     held              maxheld              barrier                limit              failcnt\n"

// h15dUBC builds a container's rows; fails maps a resource to its failcnt (all others 0).
func h15dUBC(id string, fails map[string]string) string {
	rows := [][5]string{
		{"kmemsize", "12534784", "14372700", "14372700", "14790164"},
		{"lockedpages", "0", "0", "256", "256"},
		{"privvmpages", "98304", "131072", "131072", "139264"},
		{"shmpages", "640", "656", "21504", "21504"},
		{"numproc", "42", "88", "240", "240"},
		{"physpages", "61234", "65536", "0", "9223372036854775807"},
		{"vmguarpages", "0", "0", "33792", "9223372036854775807"},
		{"oomguarpages", "61234", "65536", "26112", "9223372036854775807"},
		{"numtcpsock", "12", "40", "360", "360"},
		{"numflock", "4", "10", "188", "206"},
		{"numpty", "1", "2", "16", "16"},
		{"numsiginfo", "0", "3", "256", "256"},
		{"tcpsndbuf", "215040", "1720320", "1720320", "2703360"},
		{"tcprcvbuf", "196608", "1720320", "1720320", "2703360"},
		{"othersockbuf", "8960", "41600", "1126080", "2097152"},
		{"dgramrcvbuf", "0", "8384", "262144", "262144"},
		{"numothersock", "9", "22", "360", "360"},
		{"dcachesize", "290345", "318765", "3409920", "3624960"},
		{"numfile", "860", "1504", "9312", "9312"},
		{"dummy", "0", "0", "0", "0"},
		{"numiptent", "14", "14", "128", "128"},
	}
	var b strings.Builder
	for k, r := range rows {
		lead := "            "
		if k == 0 {
			lead = strings.Repeat(" ", 10-len(id)) + id + ": "
		}
		fc := fails[r[0]]
		if fc == "" {
			fc = "0"
		}
		b.WriteString(lead + r[0] + strings.Repeat(" ", 14-len(r[0])))
		for _, v := range append(r[1:], fc) {
			b.WriteString(strings.Repeat(" ", 21-len(v)) + v)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A socket buffer row's failcnt reaches cgroup-tcp-limit (critical: maxheld at the barrier),
// a memory row's reaches oom-kill (warning, the container's scope), each with its figures;
// in the forms users paste it (bare, a markdown fence, a quoted mail, headerless, a host
// node's table with the host's "0:" rows first).
func TestH15dBeancounterFailuresReachRules(t *testing.T) {
	body := h15dUBC("101", map[string]string{"tcpsndbuf": "147", "tcprcvbuf": "22", "privvmpages": "5821"})
	forms := map[string]string{
		"bare":      "# cat /proc/user_beancounters\n" + h15dUBCHeader + body,
		"fenced":    "My VPS drops connections:\n```\n" + h15dUBCHeader + body + "```\n",
		"quoted":    quoteLines(h15dUBCHeader + body),
		"headless":  body,
		"host node": h15dUBCHeader + h15dUBC("0", nil) + body,
	}
	for name, text := range forms {
		tl := pasteTimeline(t, text)
		f := mustFire(t, run(t, "cgroup-tcp-limit", tl), Critical)
		if !evidenceHas(f, "container 101 tcpsndbuf", "failcnt 147 (held 215040, maxheld 1720320, barrier 1720320, limit 2703360)") || !evidenceHas(f, "container 101 tcprcvbuf", "failcnt 22") {
			t.Errorf("%s: cgroup-tcp-limit evidence %+v", name, f.Evidence)
		}
		// privvmpages refuses with ENOMEM: the container's commit limit, no kill (fix20c).
		o := mustFire(t, run(t, "overcommit-exposed", tl), Warning)
		if !evidenceHas(o, "container 101 privvmpages", "failcnt 5821") || evidenceHas(o, "container 0", "") {
			t.Errorf("%s: overcommit-exposed %+v", name, o)
		}
		mustBeHealthy(t, run(t, "oom-kill", tl))
	}
	// Only a memory row failing: no socket finding; only a socket row: no OOM.
	mem := pasteTimeline(t, h15dUBCHeader+h15dUBC("101", map[string]string{"oomguarpages": "3"}))
	mustBeHealthy(t, run(t, "cgroup-tcp-limit", mem))
	mustFire(t, run(t, "oom-kill", mem), Warning)
	sock := pasteTimeline(t, h15dUBCHeader+h15dUBC("101", map[string]string{"othersockbuf": "9"}))
	if f := mustFire(t, run(t, "cgroup-tcp-limit", sock), Warning); !evidenceHas(f, "othersockbuf", "failcnt 9") {
		t.Errorf("othersockbuf: %+v", f.Evidence)
	}
	mustBeHealthy(t, run(t, "oom-kill", sock))
	// Unlimited is said so, not printed as 9223372036854775807.
	phys := pasteTimeline(t, h15dUBCHeader+h15dUBC("101", map[string]string{"physpages": "40"}))
	if f := mustFire(t, run(t, "oom-kill", phys), Warning); !evidenceHas(f, "physpages", "limit unlimited") {
		t.Errorf("physpages: %+v", f.Evidence)
	}
}

func quoteLines(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n> ") + "\n"
}

// Counter-cases: all failcnt 0 is healthy for both rules; a count that is no memory or
// buffer (numproc, numfile) fails without a finding; the words in a sentence, a
// recommendation and a "Version: 2.5" of another program are not beancounters.
func TestH15dBeancountersHealthyAndNotOthers(t *testing.T) {
	ok := pasteTimeline(t, h15dUBCHeader+h15dUBC("101", nil))
	if len(ok.Beancounters) != 21 {
		t.Fatalf("rows read %d, want 21", len(ok.Beancounters))
	}
	mustBeHealthy(t, run(t, "cgroup-tcp-limit", ok))
	mustBeHealthy(t, run(t, "oom-kill", ok))
	counts := pasteTimeline(t, h15dUBCHeader+h15dUBC("101", map[string]string{"numproc": "12", "numfile": "7"}))
	mustBeHealthy(t, run(t, "cgroup-tcp-limit", counts))
	mustBeHealthy(t, run(t, "oom-kill", counts))
	for _, s := range []string{
		"the tcpsndbuf failcnt on my VPS keeps growing, see /proc/user_beancounters\n",
		"set tcpsndbuf to 1720320:2703360 with vzctl set 101 --tcpsndbuf 1720320:2703360 --save\n",
		"Version: 2.5\nuid resource\n",
		"Version: 2.5\nRelease notes follow.\n",
		"101: tcpsndbuf is failing\n",
	} {
		if tl := pasteTimeline(t, s); len(tl.Beancounters) != 0 {
			t.Errorf("%q read as beancounters: %+v", s, tl.Beancounters)
		}
	}
}

// vzlist's beancounter columns (vzctl src/vzlist.c UBC_FIELD: "TCPSNDB", ".F" failcnt, ".B"
// barrier): a failcnt column reaches the same rules; without a .F column nothing is judged;
// the default vzlist (CTID NPROC STATUS IP_ADDR HOSTNAME) is read and judges nothing.
func TestH15dVzlistBeancounters(t *testing.T) {
	fail := pasteTimeline(t, "# vzlist -o ctid,tcpsndbuf,tcpsndbuf.b,tcpsndbuf.f,privvmpages.f\n"+
		"      CTID    TCPSNDB  TCPSNDB.B  TCPSNDB.F  PRIVVMP.F\n"+
		"       101     215040    1720320        147         12\n"+
		"       102      20480    1720320          0          0\n")
	f := mustFire(t, run(t, "cgroup-tcp-limit", fail), Warning)
	if !evidenceHas(f, "container 101 tcpsndbuf", "failcnt 147 (held 215040, barrier 1720320)") || evidenceHas(f, "container 102", "") {
		t.Errorf("vzlist cgroup-tcp-limit: %+v", f.Evidence)
	}
	if o := mustFire(t, run(t, "overcommit-exposed", fail), Warning); !evidenceHas(o, "container 101 privvmpages", "failcnt 12") {
		t.Errorf("vzlist overcommit-exposed: %+v", o.Evidence)
	}
	ok := pasteTimeline(t, "      CTID  TCPSNDB.F  PRIVVMP.F\n       101          0          0\n")
	mustBeHealthy(t, run(t, "cgroup-tcp-limit", ok))
	mustBeHealthy(t, run(t, "oom-kill", ok))
	held := pasteTimeline(t, "      CTID    TCPSNDB    PRIVVMP\n       101     215040      98304\n")
	if len(held.Beancounters) != 2 {
		t.Fatalf("held columns read %+v", held.Beancounters)
	}
	if r := run(t, "cgroup-tcp-limit", held); r.NotChecked == "" {
		t.Errorf("held only, judged: %+v", r)
	}
	def := pasteTimeline(t, "# vzlist -a\n      CTID      NPROC STATUS    IP_ADDR         HOSTNAME\n       101         88 running   203.0.113.10    vps1.example.com\n       102          - stopped   203.0.113.11    vps2.example.com\n")
	if len(def.Unparsed) != 0 || run(t, "oom-kill", def).NotChecked == "" || run(t, "cgroup-tcp-limit", def).NotChecked == "" {
		t.Errorf("default vzlist: unparsed %+v", def.Unparsed)
	}
}

// CloudLinux's lveinfo (lve-stats' documented columns; fPMEM, fVMEM, fEP, and 0.x's MemF,
// MepF): a memory fault column reaches oom-kill (the LVE's scope), plain or with the
// table's '|' rules; entry-process faults alone (a concurrency limit) and all faults 0
// reach no finding.
func TestH15dLveinfoFaults(t *testing.T) {
	for name, text := range map[string]string{
		"plain": "$ lveinfo --by-fault=pmem --display-username\n" +
			"ID        aCPU       mCPU     lCPU      aEP      mEP      lEP       aPMEM      mPMEM      lPMEM     fPMEM      fEP\n" +
			"user1       12        100      100        2       20       20        512M      1024M       1G         48      135\n",
		"ruled": "+-------+------+------+-------+-------+\n| ID    | lEP  | fEP  | lPMEM | fPMEM |\n+-------+------+------+-------+-------+\n| user1 | 20   | 135  | 1G    | 48    |\n+-------+------+------+-------+-------+\n",
	} {
		tl := pasteTimeline(t, text)
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		if !evidenceHas(f, "LVE user1 pmem", "48 faults") || f.Facts.OOM != OOMCgroup || !strings.Contains(f.Title, "CloudLinux LVE user1") {
			t.Errorf("%s: %+v", name, f)
		}
	}
	ep := pasteTimeline(t, "ID   lEP  fEP  fPMEM\nuser1 20  135  0\n")
	mustBeHealthy(t, run(t, "oom-kill", ep))
	old := pasteTimeline(t, "ID        aCPU       mCPU     lCPU      aEP      mEP      lEP       aMem       mMem      lMem      MemF     MepF\n"+
		"777         7        9        10        0        0        25        10M        15M       1G        0        0\n")
	mustBeHealthy(t, run(t, "oom-kill", old))
	// A table of another tool headed "ID" without a fault column is not lveinfo's.
	if tl := pasteTimeline(t, "ID  NAME  STATUS\n1   web   up\n"); len(tl.Beancounters) != 0 {
		t.Errorf("another ID table read: %+v", tl.Beancounters)
	}
}

// The OpenVZ kernel's "Fatal resource shortage: RES, UB ID." (kernel/bc/beancounter.c, one
// line per rate-limited refusal) is counted into the container's row: syslog lines and a
// bare quoted line reach the same rules; a question naming the words is not read.
func TestH15dFatalResourceShortage(t *testing.T) {
	tl := pasteTimeline(t, "Nov 30 03:10:01 vz1 kernel: [12345.678901] Fatal resource shortage: privvmpages, UB 101.\n"+
		"Nov 30 03:10:02 vz1 kernel: [12346.678901] Fatal resource shortage: privvmpages, UB 101.\n"+
		"Nov 30 03:10:03 vz1 kernel: [12347.678901] Fatal resource shortage: tcpsndbuf, UB 101.\n")
	if f := mustFire(t, run(t, "overcommit-exposed", tl), Warning); !evidenceHas(f, "container 101 privvmpages", "failcnt 2") {
		t.Errorf("overcommit-exposed: %+v", f.Evidence)
	}
	if f := mustFire(t, run(t, "cgroup-tcp-limit", tl), Warning); !evidenceHas(f, "container 101 tcpsndbuf", "failcnt 1") {
		t.Errorf("cgroup-tcp-limit: %+v", f.Evidence)
	}
	swap := pasteTimeline(t, "kernel: Fatal resource shortage: swappages, UB 102. More physical swap space required.\n")
	mustFire(t, run(t, "oom-kill", swap), Warning)
	bare := pasteTimeline(t, "Fatal resource shortage: privvmpages, UB 185096.\n")
	mustFire(t, run(t, "overcommit-exposed", bare), Warning)
	mustBeHealthy(t, run(t, "oom-kill", bare))
	// kmemsize: the container's kernel memory refused, a slab allocation failing, no kill.
	kmem := pasteTimeline(t, "Fatal resource shortage: kmemsize, UB 101.\n")
	if f := mustFire(t, run(t, "slab-alloc-failure", kmem), Warning); !evidenceHas(f, "container 101 kmemsize", "failcnt 1") {
		t.Errorf("kmemsize: %+v", f.Evidence)
	}
	mustBeHealthy(t, run(t, "oom-kill", kmem))
	for _, s := range []string{
		"what does Fatal resource shortage: privvmpages, UB mean?\n",
		"Fatal resource shortage: memory, UB 101.\n",
	} {
		if tl := pasteTimeline(t, s); len(tl.Beancounters) != 0 {
			t.Errorf("%q read: %+v", s, tl.Beancounters)
		}
	}
}

// A container's commit limit that refused (privvmpages failcnt) held: its ENOMEM does not
// explain the container's OOM kills (oomguarpages failcnt), which come from resident memory.
// Memory promised beyond RAM and swap (meminfo's Committed_AS) still does.
func TestCommitRefusalExplainsNoKill(t *testing.T) {
	tl := pasteTimeline(t, h15dUBCHeader+h15dUBC("101", map[string]string{"privvmpages": "1", "oomguarpages": "34"}))
	s := Run(tl, nil).Story
	for _, c := range s.Chains {
		if c.Root == "overcommit-exposed" && len(c.Links) > 1 {
			t.Errorf("a refused commit limit explains %v", chainIDs(c))
		}
	}
	var roots []string
	for _, c := range s.Causes {
		roots = append(roots, c.ID)
	}
	if !slices.Contains(roots, "oom-kill") || !slices.Contains(roots, "overcommit-exposed") {
		t.Errorf("roots %v: want the kills and the refusals told apart", roots)
	}
	kill := Finding{ID: "oom-kill", Severity: Warning}
	promised := Finding{ID: "overcommit-exposed", Severity: Warning}
	if ch := Tell([]Finding{promised, kill}).Chains; len(ch) != 1 || !slices.Equal(chainIDs(ch[0]), []string{"overcommit-exposed", "oom-kill"}) {
		t.Errorf("memory promised beyond what backs it no longer explains a kill: %+v", ch)
	}
}
