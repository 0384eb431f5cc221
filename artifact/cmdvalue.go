package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A command and its output on separate lines, as operators paste them:
//
//	# cat /proc/sys/net/ipv4/tcp_max_orphans
//	65536
//	$ sysctl -n net.ipv4.tcp_mem
//	188124	250833	376248
//	/proc/sys/net/ipv4/tcp_mem:188124	250833	376248      (grep . /proc/sys/...)
//
// The value is what the host ran with, as a `sysctl -a` line is: it is recorded under the
// host's sysctls, not as a setting the author proposed.
var (
	reCatProcSys = lazyre.New(`(?:^|[\s$#>])cat\s+/proc/sys/([A-Za-z0-9_./-]+)\s*$`)
	// supportconfig's conf_files section: "#==[ Configuration File ]===…#", then "# PATH" and
	// the file's content (supportutils bin/supportconfig.rc conf_files; memory.txt and
	// network.txt copy /proc/sys files this way: "# /proc/sys/net/ipv4/ip_forward").
	reConfProcSys = lazyre.New(`^#\s+/proc/sys/([A-Za-z0-9_./-]+)\s*$`)
	reSysctlN     = lazyre.New(`(?:^|[\s$#>])sysctl\s+-n\s+([A-Za-z0-9_.-]+)\s*$`)
	reGrepProcSys = lazyre.New(`^/proc/sys/([A-Za-z0-9_./-]+):(.+)$`)
	// An interface counter read from sysfs ("$ cat /sys/class/net/eth2/statistics/rx_missed_errors"
	// then "7142467", corpus 471): the same rtnl_link_stats64 field /proc/net/dev and ip -s
	// link print.
	reCatSysStat = lazyre.New(`(?:^|[\s$#>])cat\s+/sys/class/net/([A-Za-z0-9_.:@-]+)/statistics/([a-z_]+)\s*$`)
	// conntrack -C (--count) prints the table's entry count alone (conntrack-tools
	// src/conntrack.c, the CT_COUNT command: the kernel's nf_conntrack_count through
	// netlink, or /proc/sys/net/netfilter/nf_conntrack_count on old kernels), the number
	// `cat .../nf_conntrack_count` prints.
	reConntrackCount = lazyre.New(`(?:^|[\s$#>])conntrack\s+(?:-C|--count)\s*$`)
	// The table counted by its lines, as router guides have users do on OpenWrt, DD-WRT,
	// Tomato, VyOS and EdgeOS ("cat /proc/net/nf_conntrack | wc -l", "wc -l
	// /proc/net/nf_conntrack", /proc/net/ip_conntrack before 2.6.19's nf_conntrack, an
	// unfiltered "conntrack -L | wc -l"): the proc file and conntrack -L print one entry a
	// line (nf_conntrack_standalone.c ct_seq_show; conntrack-tools' dump to stdout, its
	// "flow entries have been shown" summary going to stderr), so the count is the
	// namespace's nf_conntrack_count at that moment. A filter (grep, -p tcp, --state)
	// counts a part of the table and is not matched.
	reConntrackLines = lazyre.New(`(?:^|[\s$#>])(?:cat\s+/proc/net/(?:nf|ip)_conntrack\s*\|\s*wc\s+-l|wc\s+-l\s+<?\s*/proc/net/(?:nf|ip)_conntrack|conntrack\s+(?:-L|--dump)(?:\s+2>\s*/dev/null)?\s*\|\s*wc\s+-l)\s*$`)
)

// isValueLine: one to four words, each a number or a plain word ("cubic", "1"), nothing that
// opens something else.
func isValueLine(t string) bool {
	fs := fields(t)
	if len(fs) == 0 || len(fs) > 4 {
		return false
	}
	for _, f := range fs {
		if strings.ContainsAny(f, "$#:=/<>[]()") {
			return false
		}
	}
	return true
}

func (d *doc) tryCommandValue(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if n := d.trySysfsCounters(i); n > 0 {
		return n
	}
	if n := d.tryCgroupMemFile(i); n > 0 {
		return n
	}
	if m := reGrepProcSys.FindStringSubmatch(t); m != nil {
		k := i
		for ; k < len(d.ls); k++ {
			m := reGrepProcSys.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
			if m == nil {
				break
			}
			d.hostValue("/proc/sys/"+m[1], strings.Join(fields(m[2]), " "), k)
		}
		return k - i
	}
	if n := d.catProcSysList(i, t); n > 0 {
		return n
	}
	var path string
	if m := reCatProcSys.FindStringSubmatch(t); m != nil {
		path = "/proc/sys/" + m[1]
	} else if m := reConfProcSys.FindStringSubmatch(t); m != nil {
		path = "/proc/sys/" + m[1]
	} else if m := reSysctlN.FindStringSubmatch(t); m != nil {
		path = m[1]
	} else if reConntrackCount.MatchString(t) {
		path = "/proc/sys/net/netfilter/nf_conntrack_count"
		if i+1 >= len(d.ls) || !isDigits(strings.TrimSpace(d.ls[i+1].Text)) {
			return 0
		}
	} else if strings.Contains(t, "wc") && reConntrackLines.MatchString(t) {
		// wc -l FILE prints "N FILE": the number alone is the count. conntrack -L's summary
		// on stderr ("conntrack v1.4.8 (conntrack-tools): N flow entries have been shown.")
		// reaches the terminal before wc's count: it is stepped over.
		at := i + 1
		if at < len(d.ls) && strings.Contains(d.ls[at].Text, "flow entries have been shown") {
			at++
		}
		if at >= len(d.ls) || d.ls[at].Kernel {
			return 0
		}
		fs := fields(d.ls[at].Text)
		if len(fs) == 0 || len(fs) > 2 || !isDigits(fs[0]) || (len(fs) == 2 && !strings.HasPrefix(fs[1], "/proc/net/")) {
			return 0
		}
		d.hostValue("/proc/sys/net/netfilter/nf_conntrack_count", fs[0], at)
		return at - i + 1
	} else {
		return 0
	}
	if i+1 >= len(d.ls) || !isValueLine(d.ls[i+1].Text) || d.ls[i+1].Kernel {
		return 0
	}
	d.hostValue(path, strings.Join(fields(d.ls[i+1].Text), " "), i+1)
	return 2
}

// hostValue records a value the host printed for a sysctl (by path or dotted name).
func (d *doc) hostValue(written, value string, at int) {
	key := kernel.NormaliseSysctlKey(written)
	sd := settingData(key, written, value, "sysctl-a")
	no := d.ls[at].No
	d.addSetting(sd, no)
	d.addArtifact(KindSetting, no, no, sd)
	if d.tl.Host.Sysctls == nil {
		d.tl.Host.Sysctls = map[string]string{}
		d.tl.Host.SysctlSource = map[string]string{}
	}
	d.tl.Host.Sysctls[key] = value
	d.tl.Host.SysctlSource[key] = fmt.Sprintf("line %d", no)
}

// trySysfsCounters reads consecutive "cat /sys/class/net/IF/statistics/NAME" commands, each
// with its number on the next line, as one reading of those interfaces' counters.
func (d *doc) trySysfsCounters(i int) int {
	var c sysfsCounters
	k := i
	for k+1 < len(d.ls) {
		m := reCatSysStat.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		v := strings.TrimSpace(d.ls[k+1].Text)
		if m == nil || !isDigits(v) || d.ls[k+1].Kernel {
			break
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			break
		}
		c.set(m[1], m[2], n)
		k += 2
	}
	if k == i {
		return 0
	}
	d.addSysfsCounters(&c, i, k, "sysfs statistics (cat /sys/class/net/IF/statistics/NAME)")
	return k - i
}

// sysfsCounters are interfaces' sysfs counters read by name, the interfaces in the order
// their names first appeared.
type sysfsCounters struct {
	devs  map[string]*kernel.NetDev
	order []string
}

func (c *sysfsCounters) set(iface, name string, v int64) {
	dev := c.devs[iface]
	if dev == nil {
		if c.devs == nil {
			c.devs = map[string]*kernel.NetDev{}
		}
		dev = &kernel.NetDev{Name: iface}
		c.devs[iface] = dev
		c.order = append(c.order, iface)
	}
	dev.Counters.Set(name, v)
}

// addSysfsCounters adds the counters read from lines i..k-1 as one sample and one artifact
// of tool.
func (d *doc) addSysfsCounters(c *sysfsCounters, i, k int, tool string) {
	nd := make([]kernel.NetDev, 0, len(c.order))
	ifs := make([]Iface, 0, len(c.order))
	for _, name := range c.order {
		nd = append(nd, *c.devs[name])
		ifs = append(ifs, Iface{Name: name, Counters: c.devs[name].Counters.Clone()})
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	label := d.label(i)
	d.segSeq++
	d.addSamples(KindIfconfig, label, first, last, []model.Sample{{Source: spanSource(first, last), NetDev: nd}})
	d.addArtifact(KindIfconfig, first, last, ifaceArtifact{Tool: tool, Interfaces: ifs, Label: label})
}

// reCatProcSysList: cat of several sysctl files ("$ cat /proc/sys/net/core/rmem_max
// /proc/sys/net/core/wmem_max"), which prints each file's one line in turn; a shell's brace
// expansion names several in one word ("cat /proc/sys/net/netfilter/nf_conntrack_{count,max}"),
// in the order written.
var reCatProcSysList = lazyre.New(`(?:^|[\s$#>])cat((?:\s+/proc/sys/[A-Za-z0-9_./{},-]+){1,16})\s*$`)

// braceExpand expands one "{a,b,...}" of a path as a shell does (bash's brace expansion,
// left to right); a word without a well-formed brace is itself.
func braceExpand(w string) []string {
	o := strings.IndexByte(w, '{')
	c := strings.IndexByte(w, '}')
	if o < 0 || c < o || !strings.Contains(w[o:c], ",") {
		if strings.ContainsAny(w, "{},") {
			return nil // a brace the shell would leave as it is: no file name
		}
		return []string{w}
	}
	var out []string
	for _, alt := range strings.Split(w[o+1:c], ",") {
		out = append(out, braceExpand(w[:o]+alt+w[c+1:])...)
	}
	return out
}

// catProcSysList reads the values under such a cat, one line per file, when every file has
// its line; it returns the lines taken (0 when t is no such command or a line is missing).
func (d *doc) catProcSysList(i int, t string) int {
	m := reCatProcSysList.FindStringSubmatch(t)
	if m == nil {
		return 0
	}
	var paths []string
	for _, w := range fields(m[1]) {
		ex := braceExpand(w)
		if ex == nil {
			return 0
		}
		paths = append(paths, ex...)
	}
	if len(paths) < 2 || len(paths) > 16 || i+len(paths) >= len(d.ls) {
		return 0
	}
	for k := range paths {
		l := d.ls[i+1+k]
		if l.Kernel || !isValueLine(l.Text) || !hasDigit(l.Text) {
			return 0
		}
	}
	for k, p := range paths {
		d.hostValue(p, strings.Join(fields(d.ls[i+1+k].Text), " "), i+1+k)
	}
	return len(paths) + 1
}
