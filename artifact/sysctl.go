package artifact

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Settings a text names, in four forms:
//
//	sysctl-a     `sysctl -a` output: "net.ipv4.tcp_mem = 196608 262144 393216" (what the host runs)
//	sysctl.conf  the same "key = value" lines in a config file or a short listing
//	sysctl-w     "sysctl -w vm.min_free_kbytes=20000" or "echo 20000 > /proc/sys/vm/min_free_kbytes"
//	prose        "*tcp\_wmem* = 4096 32768 131072", "reduced *tcp\_mem* to 40960",
//	             "the vm.min_kbytes_free sysctl" (Markdown escapes undone; a key named without a
//	             value has Value "")
//
// Every key is checked against the known keys (kernel/sysctlkeys.go): a key no kernel had is itself
// a finding, with the key the author probably meant.

// SettingData is the data of a "setting" artifact.
type SettingData struct {
	Key     string `json:"key"`
	Written string `json:"written,omitempty"` // as in the text, when it differs from Key
	Value   string `json:"value"`
	Form    string `json:"form"`
	Known   bool   `json:"known"`
	Suggest string `json:"suggest,omitempty"`
	Means   string `json:"means,omitempty"` // the kernel key it names (model.SettingMention.Means)
	Note    string `json:"note,omitempty"`  // era note of a historical key
	// Numbers are the value's integers when it is one or more of them ("4096 87380 4194304",
	// tcp_mem's three pages counts; proc_doulongvec_minmax and proc_dointvec print them
	// tab-separated, kernel/sysctl.c), quotes and Markdown marks aside. Nil otherwise.
	Numbers []int64 `json:"numbers,omitempty"`
}

// valueNumbers reads a setting's value as its integers; nil when any word is not one.
func valueNumbers(v string) []int64 {
	v = strings.Trim(v, "\"'`* ")
	var out []int64
	for _, f := range fields(v) {
		n, ok := atoi(f)
		if !ok {
			return nil
		}
		out = append(out, n)
	}
	return out
}

// SysctlBlock is the data of a "sysctl" artifact (a sysctl -a listing or sysctl.conf lines).
type SysctlBlock struct {
	Form     string        `json:"form"`
	Count    int           `json:"count"`
	Settings []SettingData `json:"settings"`
	Unknown  []SettingData `json:"unknown,omitempty"`
}

var (
	reSysctlLine = lazyre.New(`^\s*-?\s*([a-z][a-z0-9_\-]*(?:\.[A-Za-z0-9_\-/*:]+)+)\s*=\s*(.*?)\s*$`)
	reSysctlW    = lazyre.New(`sysctl\s+(?:-[a-zA-Z]+\s+)*-w\s+(?:-[a-zA-Z]+\s+)*([A-Za-z][\w.\-/]*)\s*=\s*("[^"]*"|'[^']*'|\S+)`)
	// reSysctlBare: "sysctl key=value" without -w (procps-ng's sysctl writes any argument
	// holding '=', -w or not; g293's 6904: sudo sysctl net.ipv4.tcp_mem="100000000
	// 100000000 100000000"). The '=' joins key and value, as one shell word does: "sysctl -n
	// key = v" is a display of a key and its value, read elsewhere. The quiet and
	// ignore-errors flags may come first (corpus 7068: sysctl -q net.ipv4.tcp_mem="1000 1000
	// 1000").
	reSysctlBare = lazyre.New(`\bsysctl\s+(?:(?:-[qe]{1,2}|--quiet|--ignore)\s+)*([A-Za-z][\w.\-/]*)=("[^"]*"|'[^']*'|\S+)`)
	reEchoProc   = lazyre.New(`echo\s+("[^"]*"|'[^']*'|[\w ]+?)\s*>{1,2}\s*(/proc/sys/[\w./\-]+)`)
	reProcPath   = lazyre.New(`/proc/sys/([a-z][\w\-]*(?:/[\w\-]+)+)`)
	reDottedKey  = lazyre.New(`\b((?:net|vm|kernel|fs|dev|abi|user|sunrpc|crypto|debug)\.[a-z0-9_\-]+(?:\.[a-z0-9_\-]+)*)`)
	reBareName   = lazyre.New(`\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b`)
	// A size stated for a key in bytes: "`net.core.rmem_max` was 8 MiB", "rmem_max is 4MB",
	// "raised net.core.rmem_max to 16 MiB" (reProseValue's words, and "was").
	reProseSize = lazyre.New(`^[` + "`" + `'"]?\s*(?:=|:|to|is|was|of|at)\s*(\d+(?:\.\d+)?)\s*(KiB|MiB|GiB|KB|MB|GB|K|M|G)\b`)
	// A verb of change may come first ("min_free_kbytes reduced to 100 to reproduce the
	// problem", corpus 7193): whose value it is, the sentence says (subject.go).
	reProseValue = lazyre.New(`^\s*(?:(?:(?:was|is|been|got)\s+)?(?:reduced|lowered|decreased|raised|increased|changed|bumped)\s+to\b|=|:|to|is|of|at default value of|default(?: value)? (?:of|is))\s*(\d+(?:[ \t]+\d+){0,2})(?:$|[^\w.]|\.(?:\s|$))`)
)

func isSysctlLine(t string) bool {
	if !strings.Contains(t, "=") || !strings.Contains(t, ".") {
		return false
	}
	m := reSysctlLine.FindStringSubmatch(t)
	if m == nil || strings.Count(m[1], ".") < 1 || strings.Contains(m[1], "..") {
		return false
	}
	// /proc/sys has ten top-level directories; "x.x.x.x = client" or "a.b = c" in prose
	// names none of them.
	return linuxSysctlTree(m[1])
}

func settingData(key, written, value, form string) SettingData {
	m := model.NewSettingMention(key, value, form, 0, "")
	sd := SettingData{Key: m.Key, Value: value, Form: form, Known: m.Known, Suggest: m.Suggest, Means: m.Means, Numbers: valueNumbers(value)}
	if written != sd.Key {
		sd.Written = written
	}
	if sd.Known {
		sd.Note, _ = kernel.SysctlNote(key)
	}
	return sd
}

func (d *doc) addSetting(sd SettingData, line int) {
	d.tl.Settings = append(d.tl.Settings, model.SettingMention{Key: sd.Key, Value: sd.Value, Form: sd.Form, Line: line,
		Source: fmt.Sprintf("line %d", line), Means: sd.Means, Known: sd.Known, Suggest: sd.Suggest})
}

func (d *doc) trySysctl(i int) int {
	if !isSysctlLine(d.ls[i].Text) {
		return 0
	}
	k := i
	var lines []int
	var sds []SettingData
	for ; k < len(d.ls); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if t == "" {
			break
		}
		if t[0] == '#' || t[0] == ';' || procpsReadError(t) {
			continue
		}
		m := reSysctlLine.FindStringSubmatch(t)
		if m == nil {
			break
		}
		if proseTail(m[2]) {
			break // "vm.overcommit_memory=1' for this to take effect.": a quoted command wrapped in prose
		}
		key := kernel.NormaliseSysctlKey(m[1])
		// procps sysctl writes a sysctl.conf value as it stands, quotes included
		// (sysctl.c parses no quoting): `tcp_rmem = "4096 87380 4194304"` reaches the
		// kernel with its quotes and is refused. The quotes are kept; the range check
		// says so. (On a shell command line the shell removes them: reSysctlW.)
		val := strings.Join(fields(stripReadoutRemark(m[2])), " ")
		if placeholderValue(val) {
			// "net.ipv4.tcp_mem = low pressure high", "net.core.rmem_max = <bytes>": the
			// form of a line, its fields named, not a value anyone wrote (a guide's
			// explanation of the key).
			continue
		}
		sds = append(sds, settingData(key, m[1], val, ""))
		lines = append(lines, d.ls[k].No)
	}
	if k == i {
		return 0 // the first line was the tail of a sentence (proseTail): prose, no block
	}
	for k > i && strings.HasPrefix(strings.TrimSpace(d.ls[k-1].Text), "#") {
		k--
	}
	form := "sysctl.conf"
	label := d.label(i)
	// sosreport keeps sysctl -a's output in sos_commands/kernel/sysctl_-a.
	if strings.Contains(label, "sysctl -a") || strings.Contains(label, "sysctl -A") || strings.Contains(label, "sysctl_-a") || len(sds) >= 100 || readsSysctl(label) {
		form = "sysctl-a"
	}
	blk := SysctlBlock{Form: form, Count: len(sds), Settings: sds}
	for j := range sds {
		sds[j].Form = form
		d.addSetting(sds[j], lines[j])
		if !sds[j].Known {
			blk.Unknown = append(blk.Unknown, sds[j])
		}
		if form == "sysctl-a" {
			if d.tl.Host.Sysctls == nil {
				d.tl.Host.Sysctls = map[string]string{}
				d.tl.Host.SysctlSource = map[string]string{}
			}
			d.tl.Host.Sysctls[sds[j].Key] = sds[j].Value
			d.tl.Host.SysctlSource[sds[j].Key] = fmt.Sprintf("line %d", lines[j])
		}
	}
	d.segSeq++
	d.addArtifact(KindSysctl, d.ls[i].No, d.ls[k-1].No, blk)
	return k - i
}

// proseTail reports whether a sysctl.conf line's value v is the end of a sentence that
// quoted a command and was wrapped after its '=' ("vm.overcommit_memory=1' for this to take
// effect.", Redis's overcommit warning wrapped at 72 columns): a quote that closes what the
// line never opened, with three words or more after it. procps writes a value's quotes as
// they stand, but a real value's quotes come in pairs (`tcp_rmem = "4096 87380 4194304"`).
func proseTail(v string) bool {
	for _, q := range []string{"'", "\"", "`"} {
		if strings.Count(v, q)%2 == 1 {
			_, after, _ := strings.Cut(v, q)
			return len(fields(after)) >= 3
		}
	}
	return false
}

// procpsReadError reports whether t is procps sysctl's complaint about a key it could not
// read, printed in the middle of its listing ("error: permission denied on key
// 'vm.compact_memory'" for a write-only key, sysctl.c ReadSetting): the listing goes on after
// it, so the block and its label ("# sysctl vm") go on too (corpus 930).
func procpsReadError(t string) bool {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "sysctl: "), "error: ")
	return strings.HasPrefix(t, "permission denied on key ") || strings.HasPrefix(t, "reading key ")
}

// placeholderWords are the names guides and man pages give a sysctl's fields where a value
// goes ("tcp_mem = min pressure max", tcp(7)'s "low, pressure, high").
var placeholderWords = map[string]bool{"min": true, "minimum": true, "default": true, "max": true, "maximum": true,
	"low": true, "pressure": true, "high": true, "value": true, "values": true, "n": true, "x": true,
	"size": true, "bytes": true, "pages": true, "number": true, "num": true}

// placeholderValue reports whether a sysctl.conf line's value is a template, not a value:
// every word a field's name (placeholderWords, "min, default, max" with its commas), or held
// in <>, {} or [] ("<bytes>", "{value}"). A value with any number, or another word
// ("auto", a misspelt number), is left to the range check.
func placeholderValue(v string) bool {
	f := fields(strings.NewReplacer(",", " ", "/", " ", "|", " ").Replace(v))
	if len(f) == 0 {
		return false
	}
	for _, w := range f {
		if len(w) >= 3 && (w[0] == '<' && w[len(w)-1] == '>' || w[0] == '{' && w[len(w)-1] == '}' || w[0] == '[' && w[len(w)-1] == ']') {
			continue
		}
		if !placeholderWords[strings.ToLower(w)] && !fillerValue(w) {
			return false
		}
	}
	return true
}

// fillerValue (fix34a, corpus 2893): the letters and marks a writer types where the value is
// left to the reader, "sysctl -w net.core.rmem_max=xxx", "=XXXX", "=NNN", "=...", "=???": one
// of x, n, y or z repeated, or dots, an ellipsis or question marks alone. A word with any other
// letter or a digit ("auto", "1O24") is left to the range check.
func fillerValue(w string) bool {
	if strings.Trim(w, ".…?") == "" {
		return true
	}
	c := w[0] | 0x20
	if len(w) < 2 || c != 'x' && c != 'n' && c != 'y' && c != 'z' {
		return false
	}
	for k := 1; k < len(w); k++ {
		if w[k]|0x20 != c {
			return false
		}
	}
	return true
}

// commandSetting is the setting a command line writes (sysctl -w KEY=VAL, echo VAL >
// /proc/sys/...). A template's value ("sysctl -w net.ipv4.tcp_max_orphans=VALUE", "echo <bytes>
// > ...": placeholderValue) is no value anyone wrote: the key is named, as in prose, with none.
func commandSetting(key, val string) SettingData {
	if placeholderValue(val) {
		return settingData(kernel.NormaliseSysctlKey(key), key, "", "prose")
	}
	return settingData(kernel.NormaliseSysctlKey(key), key, val, "sysctl-w")
}

// stripReadoutRemark drops a remark in parentheses after a value of numbers
// ("176547	235396	353094 (system-wide UDP memory triplet)", "1000 (default)"): the kernel
// prints a numeric sysctl as integers only (proc_dointvec, proc_doulongvec_minmax in
// kernel/sysctl.c), so the parenthesis is the author's note on a read-out, not part of a
// value sysctl would write. A value with a word before the parenthesis, or one that does not
// end at its ")", is left as written (the range check judges it).
func stripReadoutRemark(v string) string {
	o := strings.IndexByte(v, '(')
	if o <= 0 || !strings.HasSuffix(strings.TrimSpace(v), ")") {
		return v
	}
	head := strings.TrimSpace(v[:o])
	if head == "" || valueNumbers(head) == nil || strings.ContainsAny(head, "\"'`") {
		return v
	}
	return head
}

// readsSysctl: the line before a block is a command that prints the host's values
// ("$ sysctl net.core.rmem_max net.core.wmem_max"), not one that sets them.
func readsSysctl(label string) bool {
	fs := fields(label)
	for k, f := range fs {
		if f != "sysctl" {
			continue
		}
		for _, a := range fs[k+1:] {
			if a == "-w" || a == "-p" || strings.Contains(a, "=") || strings.Contains(a, ".conf") || a == "--system" || a == "--load" {
				return false
			}
		}
		return k+1 < len(fs)
	}
	return false
}

// unescapeMarkdown undoes the escapes and emphasis Markdown adds around identifiers:
// "*tcp\_wmem*" → "tcp_wmem".
func unescapeMarkdown(s string) string {
	if !strings.ContainsAny(s, `\*`+"`") {
		return s
	}
	r := strings.NewReplacer(`\_`, "_", `\*`, "", `\\`, `\`, "*", "", "`", "")
	return r.Replace(s)
}

func trimValue(v string) string {
	v = strings.Trim(v, `"'`)
	return strings.TrimRight(v, ".,;:)")
}

// prose scans a line of prose for settings.
func (d *doc) prose(i int) {
	if n := len(d.tl.Unparsed); n > 0 && d.tl.Unparsed[n-1].FirstLine <= d.ls[i].No && d.ls[i].No <= d.tl.Unparsed[n-1].LastLine {
		return // a reader already reported the line (a zoneinfo row the paste cut): not prose too
	}
	if d.slurmLine(i) || d.slurmStateLine(i) || d.sacctTable(i) > 0 || d.batchMemLine(i) || d.pipelineKillLine(i) || d.kubePyReprState(i) {
		return // Slurm's report of a step's memory cgroup OOM or its own kill, a job's state (slurmoom.go, slurmsacct.go); another scheduler's (batchmemkill.go); a workflow orchestrator's SIGKILL notice (pipelinekill.go); a Python client's container state (kube_pod.go)
	}
	if d.spadesLog(i) > 0 || d.spadesAbort(i) || d.gnuTime(i) > 0 || d.galaxyJobMetrics(i) > 0 {
		return // SPAdes' log records with the process's memory, spades.py's stage killed by SIGKILL (spadeslog.go); GNU time's report (gnutime.go); Galaxy's job metrics (galaxymetrics.go)
	}
	if cutStamp(d.ls[i].Text) {
		d.unparsed(i, i, d.cutStampReason(i))
		return
	}
	if d.cutLastRow(i) {
		d.unparsed(i, i, "the paste ends inside this line: a row of the output above, cut short")
		return
	}
	if d.memLimiterLine(i) {
		d.unparsedUnread(i, memLimiterWhy) // the OTel collector's own heap limit (unreadmemlimiter.go)
		return
	}
	if why, ok := langRuntimeLine(d.ls[i].Text); ok {
		d.unparsedUnread(i, why) // Go's gctrace, Bun's crash header: a process's own heap (langruntime.go)
		return
	}
	if key, v, ok := dbStatedSetting(d.ls[i].Text); ok && !d.exampleLog(i) {
		// A data store's start warning that states this host's sysctl value (unreaddbmsg.go):
		// the value read, the advice in the same line not.
		d.hostValue(key, v, i)
		d.used[i] = true
		return
	}
	if why, ok := dbLineWhy(d.ls[i].Text); ok {
		if d.exampleLog(i) {
			d.keepProse(i) // a guide's example of the message, not this host's
			return
		}
		d.unparsedUnread(i, why) // a data store's or broker's own message (unreaddbmsg.go)
		d.brokerFigures(i)
		d.programFigureText(i, d.ls[i].Text) // MySQL's "Out of memory (Needed N bytes)" (h38b)
		d.jvmFigures(i)                      // netty's and Elasticsearch's breaker's figures (unreadjvm.go)
		return
	}
	if _, _, ok := metricsOwnLine(d.ls[i].Text); ok {
		if d.exampleLog(i) {
			d.keepProse(i) // a guide's example of the message, not this host's
			return
		}
		d.metricsLine(i, d.ls[i].Text) // a metrics or log server's own message (unreadmetrics.go)
		return
	}
	if why, ok := sensorOwnLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a capture sensor's own drop counter or message (unreadsensor.go)
		return
	}
	if why, ok := sensorMessageLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a capture sensor's own engine message, the kernel's tpacket_rcv clamp (unreadsensormsg.go)
		return
	}
	if d.ntopngDrops(i) {
		d.unparsedUnread(i, ntopngDropsWhy) // ntopng's interface stats (unreadsensormsg.go)
		return
	}
	if why := d.snortDAQDropped(i); why != "" {
		d.unparsedUnread(i, why) // Snort's DAQ drop counter (unreadsensor.go)
		return
	}
	if d.programBacklogLine(i) {
		return // a program's own listen backlog setting (programlisten.go)
	}
	if d.jvmLine(i) {
		return // a search or big-data JVM cluster's own line (unreadjvm.go)
	}
	if d.zfsARCLine(i) {
		return // ZFS's arcstats or arc_summary (zfsarc.go)
	}
	if d.sysfsVirtValue(i) {
		return // KSM's counters, ZFS's ARC parameters under grep . (zfsarc.go)
	}
	if d.omeroConfigLine(i) {
		return // OMERO's jvmcfg sizing, Ice's properties in `omero config get` (omerocfg.go)
	}
	if freeBSDMbufSizeLine(d.ls[i].Text) && !d.exampleLog(i) {
		d.unparsedUnread(i, freeBSDMbufSizeWhy) // FreeBSD's mbuf allocator's size ceiling told (freebsdmbufsize.go, fix49d)
		return
	}
	if d.atopHTMLRow(i) {
		return // atop's record pasted as an HTML table (atophtml.go, fix49d)
	}
	if d.pyMemoryErrorToldNamed(i) {
		return // a Python MemoryError told in a sentence (pymemerrtold.go, fix49d)
	}
	if d.routerOSStats(i) {
		return // RouterOS's port or switch-chip counters (routerosstats.go, fix49d)
	}
	if d.xenToolNamed(i) {
		return // xl info's memory keys, xe's memory fields, dom0_mem= on Xen's command line (unreadcollab.go)
	}
	if why, oom, ok := webAppOwnLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.programOOMNamed = d.programOOMNamed || oom
		d.unparsedUnread(i, why) // a web application server's or routing daemon's own line (unreadwebapp.go)
		d.programFigures(i)
		return
	}
	if why, ok := dockerMemFlag(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // docker's -m/--memory on a container (dockermemflag.go)
		return
	}
	if sctpSNMPLine(d.ls[i].Text) {
		d.unparsedUnread(i, sctpSNMPWhy) // the kernel's SCTP counters (unreadtelecom.go)
		return
	}
	if why, oom, ok := telecomOwnLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.programOOMNamed = d.programOOMNamed || oom
		d.unparsedUnread(i, why) // a radio stack's, mobile core's or voice server's own line (unreadtelecom.go)
		d.programFigures(i)
		return
	}
	if why, ok := canTxQueueLine(d.ls[i].Text); ok {
		d.unparsedUnread(i, why) // a CAN interface's full transmit queue or its txqueuelen (unreadcantx.go)
		return
	}
	if why, ok := errnoLogLine(d.ls[i].Text); ok {
		d.unparsedUnread(i, why) // an application's log line with a socket or memory errno (unreaderrno.go)
		return
	}
	if collectdMaxPacketLine(d.ls[i].Text) {
		d.unparsedUnread(i, collectdMaxPacketWhy) // collectd's network plugin's packet size (collectdnet.go)
		return
	}
	if key, v, ok := agaveLimitLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		// Agave's report of this host's sysctl value (unreadappbuf.go): the current value
		// is read, its recommendation is not.
		// The line is read, not prose: the value the host printed (hostValue), no advice-word test.
		d.hostValue(key, v, i)
		d.used[i] = true
		return
	}
	if why, ok := appBufferLine(d.ls[i].Text); ok {
		if d.exampleLog(i) {
			d.keepProse(i) // a guide's example of the message ("You may see this warning:"), not this host's
			return
		}
		d.unparsedUnread(i, why) // a server's message about the buffers it was granted (unreadappbuf.go)
		d.programFigures(i)      // quic-go's was/wanted/got, the program's figures
		return
	}
	if why, ok := agentMetricLine(d.ls[i].Text); ok {
		if counterAlarmLine(d.ls[i].Text) {
			d.keepProse(i) // an alarm on a counter's growth that fired: stated reads it (statedalarm.go)
			return
		}
		d.unparsedUnread(i, why) // a monitoring agent's alarm or metric (unreadagent.go)
		return
	}
	if txHangLine(d.ls[i].Text) {
		d.unparsedUnread(i, txHangWhy) // a driver's transmit hang named (unreadtxhang.go)
		return
	}
	if why, ok := appHostLine(d.ls[i].Text); ok {
		d.unparsedUnread(i, why) // a data store's or runtime's own limit (unreadagent.go)
		d.jvmFigures(i)          // HotSpot's native allocation's bytes (unreadjvm.go)
		d.programOOMNamed = d.programOOMNamed || jvmOOMText(d.ls[i].Text)
		d.frameworkKill(i) // YARN's own kill of a Spark executor (unreadmlfw.go)
		return
	}
	if d.webrtcLine(i, d.ls[i].Text) {
		return // mediasoup's worker exit, Janus's own allocation (unreadwebrtc.go)
	}
	if why, ok := appOOMLine(d.ls[i].Text); ok {
		d.programOOMNamed = true
		d.unparsedUnread(i, why) // a runtime's or a server's own out-of-memory (unreadappoom.go)
		d.programFigures(i)
		d.frameworkKill(i) // Ray's or dask's own kill for memory (unreadmlfw.go)
		return
	}
	if why, ok := rayOwnLine(d.ls[i].Text); ok {
		if d.exampleLog(i) {
			d.keepProse(i) // a guide's example of Ray's message, not this host's
			return
		}
		d.unparsedUnread(i, why) // Ray's own line about memory, no kill and no shortage (unreadmlfw.go)
		return
	}
	if why, ok := roslaunchSigkillLine(d.ls[i].Text); ok {
		d.unparsedUnread(i, why) // roslaunch's notice of a node killed by SIGKILL (unreadappoom.go)
		return
	}
	if why, ok := ansibleTupleKilled(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a shell's SIGKILL notice in Ansible's -vvv return tuple (unreadshellkill.go)
		return
	}
	if why, ok := shellKilledLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a shell's or compose's notice of a child killed by SIGKILL (unreadshellkill.go)
		return
	}
	if d.ownEndProse(i) {
		return // a runtime's or supervisor's own OOM or kill notice, bare or under its own stamp (unreadownend.go)
	}
	if why, oom, ok := serverOwnLine(d.ls[i].Text); ok {
		if d.exampleLog(i) {
			d.keepProse(i) // a guide's example of the message, not this host's
			return
		}
		d.programOOMNamed = d.programOOMNamed || oom
		d.unparsedUnread(i, why) // a file-sharing program's or a web cache's own limit (unreadserver.go)
		d.programFigures(i)
		return
	}
	if strings.IndexByte(d.ls[i].Text, '(') >= 0 && ulimitRow(d.ls[i].Text) && !d.exampleLog(i) {
		d.unparsedUnread(i, whyUlimitRow) // a row of the shell's ulimit -a (unreadulimitpool.go)
		return
	}
	if why, ok := deviceStreamLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a camera's or a software radio's own stream statistics (unreadsdr.go)
		return
	}
	if why, ok := streamLossRow(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a load tester's per-stream bitrate and loss (unreadstreamtable.go)
		return
	}
	if why, ok := netFSLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a network file system's kernel message quoted bare (unreadserver.go)
		return
	}
	if why, ok := beancounterLimitStated(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a container's beancounter limit reached, stated (beancounters.go)
		return
	}
	if !d.exampleLog(i) && strings.Contains(d.ls[i].Text, ", UB ") && d.beancounterShortageSeen(d.ls[i].No, strings.TrimSpace(d.ls[i].Text)) {
		d.used[i] = true // OpenVZ's "Fatal resource shortage" quoted bare: read as the container's failcnt (beancounters.go)
		return
	}
	if why, ok := kernelNetTableLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a kernel network-table message quoted bare (unreadnettable.go)
		return
	}
	if why, ok := userLBPoolLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a user-space load balancer's own pool (unreadlb.go)
		return
	}
	if falcoMetricLine(d.ls[i].Text) {
		d.unparsedUnread(i, falcoMetricsWhy) // Falco's metrics snapshot (unreadjson.go, fix39b)
		return
	}
	if d.jsonStatLine(i) {
		d.unparsedUnread(i, jsonStatWhy) // a JSON object of memory or network statistics (unreadjson.go)
		return
	}
	if balloonStatsObject(d.ls[i].Text) {
		d.unparsedUnread(i, balloonStatsWhy) // a guest's balloon statistics (unreadjson.go, fix36b)
		return
	}
	if jsonOneLineCounters(d.ls[i].Text) {
		if jsonOneLineMemory(d.ls[i].Text) {
			d.unparsedUnread(i, jsonStatWhy) // a memory report as one JSON line (fix30a)
			return
		}
		d.unparsedUnread(i, jsonAppCountersWhy) // a program's own counters as one JSON line (unreadjson.go)
		return
	}
	if d.tryFlattenedWrapped(i) {
		return // ifconfig flattened into a paragraph a mail client wrapped (flattened.go)
	}
	if why, ok := socketErrnoLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // an application's socket errno in its runtime's wrapping (unreadsockerr.go)
		return
	}
	if why, ok := unreadEvidence(d.ls[i].Text); ok {
		if d.tryFlattened(i) {
			return
		}
		if d.unreadCommandOutput(i) {
			return // under its command: the reason names it
		}
		if d.ucmd.foreign {
			d.keepProse(i) // under "ls -l", "df -h": another domain's numbers
			return
		}
		d.unparsedUnread(i, why)
		return
	}
	// A command and the few counters of its output that a page ran onto one line ("#
	// ethtool -S enp1s0 ... rx_queue_0_drops: 97326 rx_queue_1_drops: 63783 ...", "$
	// netstat -su Udp: 2829651752 packets received ... 179722143 packets sentThis is")
	// holds too few numbers to look like output, but the command says what they are.
	if (strings.Contains(d.ls[i].Text, "ethtool -S ") || strings.Contains(d.ls[i].Text, "netstat -s")) && d.tryFlattened(i) {
		return
	}
	if d.unreadCommandOutput(i) {
		return
	}
	if why, ok := webStatusLine(d.ls[i].Text); ok && !d.exampleLog(i) {
		d.unparsedUnread(i, why) // a web server's or proxy's status output without its command (unreadproxy.go)
		d.programFigures(i)
		return
	}
	d.keepProse(i)
	t := d.ls[i].Text
	if strings.IndexByte(t, '_') < 0 && !strings.Contains(t, "sysctl") && !strings.Contains(t, "/proc/sys") &&
		!strings.Contains(t, "vm.") && !strings.Contains(t, "net.") && !strings.Contains(t, "kernel.") && !strings.Contains(t, "fs.") {
		return
	}
	s := unescapeMarkdown(t)
	no := d.ls[i].No
	covered := make([]bool, len(s)+1)
	cover := func(a, b int) {
		for x := a; x < b && x < len(covered); x++ {
			covered[x] = true
		}
	}
	isCovered := func(a int) bool { return a < len(covered) && covered[a] }
	add := func(sd SettingData) {
		d.addSetting(sd, no)
		d.addArtifact(KindSetting, no, no, sd)
	}
	for _, re := range []*lazyre.Regexp{reSysctlW, reSysctlBare} {
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			if isCovered(m[0]) || re == reSysctlBare && strings.HasPrefix(s[m[4]:m[5]], "$") {
				continue // a shell expansion ("$((100*1024*1024))") is no value as written
			}
			key := s[m[2]:m[3]]
			val := trimValue(cutRunOnSentence(s[m[4]:m[5]]))
			add(commandSetting(key, val))
			cover(m[0], m[1])
		}
	}
	for _, m := range reEchoProc.FindAllStringSubmatchIndex(s, -1) {
		path := strings.TrimRight(s[m[4]:m[5]], ".,;:)")
		add(commandSetting(path, trimValue(s[m[2]:m[3]])))
		cover(m[0], m[1])
	}
	for _, m := range reProcPath.FindAllStringSubmatchIndex(s, -1) {
		if isCovered(m[0]) {
			continue
		}
		path := strings.TrimRight(s[m[0]:m[1]], ".,;:)")
		cover(m[0], m[1])
		if globbedPath(t, path) {
			continue // "grep . /proc/sys/net/ipv4/tcp*mem": a shell pattern, no key (443)
		}
		if strings.HasSuffix(path, "-") && strings.TrimSpace(s[m[1]:]) == "" {
			// A path the page hyphenated where the line ends (man(1) breaks
			// "/proc/sys/vm/nr_overcom‐" / "mit_hugepages"): the line break is the
			// typesetter's, the key goes on at the start of the next line.
			rest, ok := d.wrappedRest(i)
			if !ok {
				continue // the rest is not there: what was written is not in the text
			}
			path = strings.TrimSuffix(path, "-") + rest
		}
		add(settingData(kernel.NormaliseSysctlKey(path), path, "", "prose"))
	}
	for _, m := range reDottedKey.FindAllStringSubmatchIndex(s, -1) {
		if isCovered(m[0]) {
			continue
		}
		if m[0] > 0 && (s[m[0]-1] == '.' || s[m[0]-1] == '@' || s[m[0]-1] == '/' || s[m[0]-1] == '=') {
			// "vger.kernel.org", "lwn.net"; "(origin=kernel.auto_scenario_check)": a
			// dotted name after '=' is an attribute's value, not a key being set (467).
			continue
		}
		key := strings.TrimRight(s[m[2]:m[3]], ".-")
		known, _ := kernel.KnownSysctl(key)
		if !known && !strings.Contains(key, "_") && strings.Count(key, ".") < 2 {
			continue // "kernel.org": not a key
		}
		if !known && strings.TrimSpace(s[m[1]:]) == "" && kernel.SysctlKeyPrefix(key) {
			// A key that ends the line and begins a known one was cut where the paste
			// or the page ends ("vi /etc/sysctl.conf net.ipv4.netfilter.ip_c"): what was
			// written is not in the text, so it is no misspelt key.
			cover(m[0], m[1])
			continue
		}
		val := ""
		if b, ok := proseSizeValue(key, s[m[3]:]); ok {
			val = b // before reProseValue, which reads "8 MiB" as 8
		} else if g, ok := proseGroupedValue(key, s[m[3]:]); ok {
			val = g // before reProseValue, which reads "655,360" as 655 (sysctlgrouped.go)
		} else {
			val = proseValue(s[m[3]:])
		}
		add(settingData(key, key, val, "prose"))
		cover(m[0], m[1])
	}
	for _, m := range reBareName.FindAllStringSubmatchIndex(s, -1) {
		if isCovered(m[0]) || (m[0] > 0 && (s[m[0]-1] == '.' || s[m[0]-1] == '/')) {
			continue
		}
		name := s[m[2]:m[3]]
		key, ok := kernel.ResolveSysctlName(name)
		if !ok {
			continue
		}
		val := ""
		if g, ok := proseGroupedValue(key, s[m[3]:]); ok {
			val = g
		} else {
			val = proseValue(s[m[3]:])
		}
		add(settingData(key, name, val, "prose"))
		cover(m[0], m[1])
	}
}

// proseSizeValue: the bytes of a size stated with a unit right after a key whose value is a
// size in bytes (kernel.SysctlInBytes): "8 MiB" is 8388608. KB, MB and GB are read as binary
// too: a socket buffer's size is written "16MB" for 16777216 in the tuning guides, and a
// decimal reading would put it 5% below what was meant.
func proseSizeValue(key, after string) (string, bool) {
	if !kernel.SysctlInBytes(key) {
		return "", false
	}
	m := reProseSize.FindStringSubmatch(after)
	if m == nil {
		return "", false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil || v <= 0 {
		return "", false
	}
	switch strings.ToUpper(m[2][:1]) {
	case "K":
		v *= 1 << 10
	case "M":
		v *= 1 << 20
	case "G":
		v *= 1 << 30
	}
	if v > math.MaxInt32 {
		return "", false // the key is an int: no such value
	}
	return strconv.FormatInt(int64(v), 10), true
}

// wrappedRest is the first word of the line after line i when it can be the rest of a sysctl
// path or key hyphenated at the end of line i ("mit_hugepages." after "nr_overcom‐"): letters,
// digits, '_' and '-', trailing punctuation dropped.
func (d *doc) wrappedRest(i int) (string, bool) {
	if i+1 >= len(d.ls) {
		return "", false
	}
	f := strings.Fields(d.ls[i+1].Text)
	if len(f) == 0 {
		return "", false
	}
	w := strings.TrimRight(f[0], ".,;:)\"'")
	if w == "" || strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) >= 0 {
		return "", false
	}
	return w, true
}

// globbedPath reports whether path came from a word of t that is a shell pattern
// ("/proc/sys/net/ipv4/tcp*mem", whose '*' unescapeMarkdown took for emphasis): such a word
// names several files, not one setting.
func globbedPath(t, path string) bool {
	for _, f := range strings.Fields(t) {
		if !strings.Contains(f, "/proc/sys") || !strings.ContainsAny(f, "*?[") {
			continue
		}
		if strings.Contains(strings.NewReplacer("*", "", "?", "", "[", "", "]", "", "\\", "").Replace(f), path) {
			return true
		}
	}
	return false
}

// ParseSettings returns the settings a text names, in any of the forms above.
func ParseSettings(text string) []model.SettingMention {
	tl := ParseString(text, "", Options{})
	return tl.Settings
}

// reSysctlNotApplied is systemd-sysctl's message for a setting it could not write
// (src/sysctl/sysctl.c apply_setting: "Couldn't write '%s' to '%s', ignoring: %m"; before
// systemd 240 "Failed to write '%s' to '%s': %m"). The classic case: a net.netfilter key
// in sysctl.conf, applied at boot before nf_conntrack was loaded ("No such file or
// directory").
var reSysctlNotApplied = lazyre.New(`(?:Couldn't|Failed to) write '([^']*)' to '([^']+)'(?:, ignoring)?: (.*)$`)

// sysctlNotApplied reads systemd-sysctl's line at i as a setting that the host does not
// run: an artifact, and no setting of the timeline (the value is what the file asked for,
// not what the kernel has).
func (d *doc) sysctlNotApplied(i int) bool {
	m := reSysctlNotApplied.FindStringSubmatch(d.ls[i].Text)
	if m == nil {
		return false
	}
	path := strings.TrimPrefix(m[2], "/proc/sys/")
	sd := settingData(kernel.NormaliseSysctlKey(path), m[2], m[1], "not-applied")
	sd.Note = "systemd-sysctl could not write it (" + m[3] + "): the host does not run this value"
	d.used[i] = true
	no := d.ls[i].No
	d.addArtifact(KindSetting, no, no, sd)
	return true
}

// cutLastRow reports whether line i is the text's last non-blank line, follows output that a
// reader took, and is one bare word: the first characters of one more row ("pgsteal_kswapd"
// after /proc/vmstat, "net" after `sysctl -a | grep`), which a paste cut (corpus 420, 421).
// Counting it as prose would hide that the output is incomplete.
func (d *doc) cutLastRow(i int) bool {
	if i == 0 || !d.used[i-1] || d.ls[i-1].Kernel {
		return false
	}
	t := strings.TrimSpace(d.ls[i].Text)
	if t == "" || len(t) > 64 {
		return false
	}
	for j := 0; j < len(t); j++ {
		c := t[j]
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	// It must look like the start of a row, not a word of prose ("thanks"): a name with an
	// underscore, a number, or the start of the row above's first field.
	prev := strings.TrimSpace(d.ls[i-1].Text)
	if strings.IndexByte(t, '_') < 0 && !kernel.IsDigits(t) && !strings.HasPrefix(prev, t) {
		return false
	}
	// Only white space may follow it in the text: it is on the text's last non-blank line.
	text := d.wholeText()
	last := len(strings.TrimRight(text, " \t\r\n"))
	return last > 0 && d.ls[i].No == strings.Count(text[:last], "\n")+1
}
