package diagnose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/internal/uniq"
	"headroom/kernel"
	"headroom/model"
)

// sysctl-unknown-key: a text sets or names a sysctl the kernel does not have. `sysctl -w`
// fails ("cannot stat /proc/sys/..."), `sysctl -p` and systemd-sysctl report it and go on
// with the other lines, and the setting the author believes in is not there. Seed 000: "sudo
// sysctl -w vm.min_kbytes_free=20248" for vm.min_free_kbytes. The key list is artifact's
// (current keys of a 6.18 host plus historical keys with the kernels that had them).
//
// sysctl-out-of-range: a value the kernel refuses or only partly applies. Handlers check
// bounds per key (proc_dointvec_minmax with extra1/extra2, kernel/sysctl.c): an out-of-range
// or non-numeric value fails with EINVAL, and in a vector the values before the bad one are
// already stored (__do_proc_dointvec writes element by element). int-typed keys refuse values
// above INT_MAX. tcp_mem and udp_mem (proc_doulongvec_minmax) have no bounds but refuse
// negative numbers since 5.17 (commit 1622ed7d0743; before, they were silently ignored).
func init() {
	Register(Rule{
		ID:     "sysctl-unknown-key",
		Title:  "settings in the text that the kernel does not have",
		Family: FamilyNetwork,
		Check:  checkSysctlUnknownKey,
	})
	Register(Rule{
		ID:     "sysctl-out-of-range",
		Title:  "sysctl values the kernel refuses or only partly applies",
		Family: FamilyNetwork,
		Check:  checkSysctlOutOfRange,
	})
}

// sysctlChecked reports whether a mention is the author's setting (a `sysctl -w`, a
// sysctl.conf line, prose) rather than a `sysctl -a` listing, which the kernel printed and so
// has and accepts.
func sysctlChecked(m model.SettingMention) bool { return m.Form != "sysctl-a" }

// sysctlRemovedRE reads a removal version from artifact's notes on historical keys:
// "removed in 4.12 (...)", "before 2.6.13 (...)", "2.6 before 2.6.22", "2.6.0-2.6.11, ...".
var (
	sysctlDigitsRE  = lazyre.New(`^-?[0-9]+$`)
	sysctlRemovedRE = lazyre.New(`(?:removed in|before)\s+(\d+\.\d+(?:\.\d+)?)`)
	sysctlRangeRE   = lazyre.New(`^\d+\.\d+(?:\.\d+)?-(\d+\.\d+(?:\.\d+)?)\b`)
)

func checkSysctlUnknownKey(tl *model.Timeline) Result {
	var ms []model.SettingMention
	for _, m := range tl.Settings {
		if sysctlChecked(m) && strings.Contains(m.Key, ".") {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return NotChecked("no sysctl settings named in the input (sysctl -w, sysctl.conf lines, or keys in prose)")
	}
	kver, kOK := tl.Host.KernelVersion()
	var ev []Evidence
	sev := Severity(-1)
	seen := map[string]bool{}
	// meant: what the keys that never took effect were most likely meant as (Facts).
	var unknown, misspelt, meant []string
	// One evidence line per key, listing how and where the text names it.
	type use struct {
		forms, lines []string
		files        []string // "/etc/sysctl.d/X.conf line N": settings read from the host's own files
		first        model.SettingMention
		valued       bool // some mention writes a value or is a command/conf line, not a bare path in prose
	}
	// named: every key the text names, as written, to tell a mangled copy of a key the text
	// also names whole from a key the author actually wrote wrong.
	named := map[string]bool{}
	for _, m := range ms {
		named[m.Key] = true
	}
	uses := map[string]*use{}
	var order []string
	for _, m := range ms {
		u := uses[m.Key]
		if u == nil {
			u = &use{first: m}
			uses[m.Key] = u
			order = append(order, m.Key)
		}
		if m.Form != "prose" || strings.TrimSpace(m.Value) != "" {
			u.valued = true
		}
		if f := netFormName(m.Form); !slices.Contains(u.forms, f) {
			u.forms = append(u.forms, f)
		}
		if strings.HasPrefix(m.Source, "/") {
			u.files = append(u.files, m.Source)
		} else if l := strconv.Itoa(m.Line); m.Line > 0 && !slices.Contains(u.lines, l) {
			u.lines = append(u.lines, l)
		}
	}
	for _, key := range order {
		u := uses[key]
		what := fmt.Sprintf("%s (%s)", key, strings.Join(u.forms, ", "))
		src := "the text (what the author had or tried, not necessarily the host's value)"
		if len(u.lines) > 0 {
			src = fmt.Sprintf("the text at line %s (what the author had or tried, not necessarily the host's value)", strings.Join(u.lines, ", "))
		}
		if len(u.files) > 0 {
			src = strings.Join(u.files, ", ") + " (applied at boot by systemd-sysctl or sysctl --system)"
		}
		known, suggestion := kernel.KnownSysctl(key)
		if dir, listed := kernel.ModuleSysctl(key); !known && dir != "" && (!listed || !strings.HasPrefix(suggestion, dir)) {
			// A directory a module registers on load (sunrpc, fs.nfs, net.ipv4.vs, ...):
			// the key list lacks that module's keys, so a key it does not hold is not
			// unknown. Only a near miss of a listed key of the same directory is still a
			// misspelling.
			continue
		}
		if !known && kernel.OtherOSSysctl(key) {
			// "If you were on FreeBSD, you could ... sysctl net.inet.tcp.nolocaltimewait=1"
			// (990): a BSD's key, advice for another system; no Linux kernel was asked to
			// take it, so no setting of this host failed.
			continue
		}
		if !known && kernel.SysctlDirectory(key) {
			// "(does nothing if no /proc/sys/net/netfilter/ present)": a directory of keys,
			// not a key; nothing was set, so nothing failed to take effect (896).
			continue
		}
		if !known && !u.valued && suggestion != "" && named[suggestion] {
			// A bare path in prose, no value, a near miss of a key the same text names whole
			// ("392: atomic_read(&tcp_memory_allocated)  /proc/sys/net/ipv/tcp_mem" in a
			// code-search snippet beside "cat /proc/sys/net/ipv4/tcp_mem", 917): the page
			// mangled a copy of the key; nobody wrote this one, so it is no unknown setting.
			continue
		}
		if !known && !u.valued && suggestion == "" {
			// A key named in prose only, with no value, that is no near miss of a listed key
			// (proc(5) documents kernel.modprobe, kernel.yama.ptrace_scope, fs.inode-max of
			// 2.4, ppc's kernel.powersave-nap): the list is one host's keys plus some
			// historical ones, so all it proves is that this key is not in it. Nothing was
			// set, so no setting failed; only a near miss says the author wrote it wrong.
			continue
		}
		if through := kernel.SysctlKeysThrough(); !known && suggestion == "" && through.Known && (!kOK || kver.Compare(through) > 0) {
			// A key near no key of the list, set for a kernel that is not known to be older
			// than the list's (corpus 7068: net.core.bypass_prot_mem, added by the 2025 patch
			// series whose test transcript sets it): a newer kernel's key, or an out-of-tree
			// module's, as likely as a misspelling. Not proof that the setting failed.
			ev = append(ev, Evidence{What: what, Value: fmt.Sprintf("not a key of Linux %d.%d (the list headroom holds) nor of the older kernels it lists: a newer kernel's or a module's key, or misspelt; sysctl on the host says which", through.Major, through.Minor), Source: src})
			sev = max(sev, Info)
			continue
		}
		if !known {
			v := "no kernel has this key"
			if suggestion != "" {
				v += "; did the author mean " + suggestion + "?"
			}
			if o, ok := statedOutcomeWritten(tl, key); ok {
				// The author says the setting worked: the key is misspelt in the text, not
				// on the host (seed 000: "After changing it to 20000 ... the problem went away").
				ev = append(ev, Evidence{What: what, Value: v + "; " + sysctlWorked + ": " + o.Source + ", so the text misspells the key it ran", Source: src})
				sev = max(sev, Info)
				misspelt = append(misspelt, key)
				continue
			}
			ev = append(ev, Evidence{What: what, Value: v, Source: src})
			sev = max(sev, Warning)
			unknown = append(unknown, key)
			if suggestion != "" {
				meant = append(meant, suggestion)
			}
			continue
		}
		note, _ := kernel.SysctlNote(key)
		if note == "" {
			continue
		}
		// A historical key: absent from the host's kernel if that kernel is newer than the
		// version the note names.
		var gone kernel.KernelVersion
		if mm := sysctlRemovedRE.FindStringSubmatch(note); mm != nil {
			gone, _ = kernel.ParseKernelVersion(mm[1])
		} else if mm := sysctlRangeRE.FindStringSubmatch(note); mm != nil {
			if last, err := kernel.ParseKernelVersion(mm[1]); err == nil && last.Known {
				gone = last.Next()
			}
		}
		if gone.Known && kOK && kver.Compare(gone) >= 0 && u.valued {
			ev = append(ev, Evidence{What: what, Value: fmt.Sprintf("not in kernel %s: %s", tl.Host.Kernel, note), Source: src})
			sev = max(sev, Warning)
			unknown = append(unknown, key)
			continue
		}
		// A historical key named in prose only, with no value (tcp(7) documents tcp_bic,
		// "Linux 2.4.27/2.6.6 to 2.6.13"): nothing was set, so nothing failed to take effect,
		// whatever kernel the text is about.
		ev = append(ev, Evidence{What: what, Value: "a historical key: " + note, Source: src})
		sev = max(sev, Info)
	}
	if sev < 0 {
		return Healthy("all %d settings named in the input are keys the kernel has", len(ms))
	}
	title := "settings in the text name keys that exist only in other kernels"
	if len(misspelt) > 0 {
		title = fmt.Sprintf("%s: the text misspells the key; its stated outcome says the setting took effect", strings.Join(misspelt, ", "))
	}
	if len(unknown) > 0 {
		title = fmt.Sprintf("%s: no such sysctl, so the setting never took effect", strings.Join(unknown, ", "))
	}
	f := Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Facts:    Facts{MeantKeys: meant, StatedWorked: len(misspelt) > 0},
		Explanation: "A key the kernel does not have is not an error anyone sees for long: `sysctl -w` prints " +
			"\"cannot stat /proc/sys/...\" once, `sysctl -p` and systemd-sysctl log it and apply the rest, and " +
			"the host keeps its old value while the author believes the fix is in place. The SheevaPlug NAS report's fix was " +
			"described as vm.min_kbytes_free; the kernel's key is vm.min_free_kbytes. Keys also come and go " +
			"with kernel versions (tcp_tw_recycle was removed in 4.12), so a tuning guide for one kernel can " +
			"name keys another lacks.",
	}
	for _, m := range ms {
		if known, sugg := kernel.KnownSysctl(m.Key); !known && sugg != "" && !seen["change "+m.Key] {
			seen["change "+m.Key] = true
			f.Changes = append(f.Changes, model.Change{
				Kind: model.ChangeOther, Key: m.Key, Current: m.Value,
				Recommended: "write the key as " + sugg,
				Why:         fmt.Sprintf("%s does not exist; %s is the key the text most likely meant. Size its value with the rules for that key (headroom doctor on the host, headroom plan) rather than copying the text's", m.Key, sugg),
			})
		}
	}
	return Fired(f)
}

// sysctlWorked is what an unknown key's evidence says when the text states the setting
// worked (the story reads Facts.StatedWorked).
const sysctlWorked = "the text states the setting worked"

// statedOutcomeWritten is the outcome a text states for a key as written.
func statedOutcomeWritten(tl *model.Timeline, key string) (model.SettingMention, bool) {
	for _, m := range tl.Settings {
		if m.Subject == model.SubjectOutcome && m.Key == key {
			return m, true
		}
	}
	return model.SettingMention{}, false
}

func netFormName(form string) string {
	switch form {
	case "sysctl-w":
		return "sysctl -w"
	case "sysctl.conf":
		return "sysctl.conf line"
	case "prose":
		return "named in prose"
	case "":
		return "named"
	}
	return form
}

func checkSysctlOutOfRange(tl *model.Timeline) Result {
	var ms []model.SettingMention
	for _, m := range tl.Settings {
		if !sysctlChecked(m) {
			continue
		}
		if _, ok := sysctlRangeFor(m); ok {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		if len(tl.Settings) == 0 {
			return NotChecked("no sysctl settings named in the input (sysctl -w, sysctl.conf lines, or keys in prose)")
		}
		return Healthy("none of the %d settings named in the input is a key with known bounds", len(tl.Settings))
	}
	kver, kOK := tl.Host.KernelVersion()
	var ev []Evidence
	sev := Severity(-1)
	var bad, advised []string
	for _, m := range ms {
		full, rg := sysctlRangeForKey(m)
		problems, s := sysctlProblems(m, rg, kver, kOK)
		src := netMentionSource(m)
		if m.Subject == model.SubjectAdvice && s >= Warning {
			// A value a guide recommends is refused only when someone applies it: worth
			// saying, but no failure of this host, so it never outranks the host's evidence.
			s = Info
			advised = append(advised, full)
			src = "recommended in the text at line " + strconv.Itoa(m.Line) + " (advice, not the host's value)"
		}
		for _, p := range problems {
			ev = append(ev, Evidence{What: fmt.Sprintf("%s = %q (%s)", full, m.Value, netFormName(m.Form)), Value: p, Source: src})
		}
		if s >= 0 {
			sev = max(sev, s)
			if s >= Warning {
				bad = append(bad, full)
			}
		}
	}
	if sev < 0 {
		return Healthy("%d settings named in the input are within what the kernel accepts", len(ms))
	}
	title := "settings in the text are accepted but inconsistent"
	switch {
	case len(bad) > 0:
		title = fmt.Sprintf("the kernel refuses the value given for %s", strings.Join(uniq.Stable(bad), ", "))
	case len(advised) > 0:
		title = fmt.Sprintf("the text recommends a value the kernel refuses for %s (advice, not this host's setting)", strings.Join(uniq.Stable(advised), ", "))
	}
	f := Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Explanation: "Each sysctl's handler checks what is written: a non-number, a value outside the key's bounds " +
			"or above its type's maximum fails with EINVAL, and for vectors such as tcp_rmem the values before the " +
			"bad one are already applied, leaving a mix of old and new. `sysctl -p` reports the error and moves on, " +
			"so a sysctl.conf can look applied when it is not. Triplets like tcp_mem and tcp_rmem are accepted in " +
			"any order, but the kernel reads them as min, pressure/default, max: a maximum below the minimum makes " +
			"the limits meaningless.",
	}
	return Fired(f)
}

// sysctlRangeFor finds the bounds of the key a mention names. Only a key the kernel would
// resolve as written counts (the full key or its unique tail, "tcp_rmem"): a reordered key
// such as vm.min_kbytes_free is refused by name before any value is read (the unknown-key rule).
func sysctlRangeFor(m model.SettingMention) (kernel.SysctlRange, bool) {
	_, r := sysctlRangeForKey(m)
	return r, r.Fields > 0
}

func sysctlRangeForKey(m model.SettingMention) (string, kernel.SysctlRange) {
	full := m.Names()
	if full == "" || (full != m.Key && !strings.HasSuffix(full, "."+m.Key)) {
		return m.Key, kernel.SysctlRange{}
	}
	r, _ := kernel.LookupSysctlRange(full)
	return full, r
}

// sysctlProblems checks one value against its key's bounds. The severity is -1 when there is
// nothing to say, Info for values accepted but inconsistent, Warning for values refused.
func sysctlProblems(m model.SettingMention, rg kernel.SysctlRange, kver kernel.KernelVersion, kOK bool) ([]string, Severity) {
	var out []string
	sev := Severity(-1)
	fields := strings.Fields(m.Value)
	if len(fields) == 0 {
		return nil, -1
	}
	typeMax := rg.TypeMax()
	maxV, why := rg.MaxAt(kver, kOK)
	vals := make([]int64, 0, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil && i >= max(rg.Fields, 1) {
			// Text after all the values the key holds ("26214400 # the default", a
			// sysctl.conf comment on the value's line) is not read: proc_dointvec stops after
			// the table's values and the write succeeds short (measured on 6.18: "262144 #
			// c" sets 262144, write returns 7 of 39; `sysctl -p` of such a line exits 0).
			// Before all of them were read, the same text is refused (below).
			break
		}
		if err != nil {
			if _, ferr := strconv.ParseFloat(f, 64); ferr == nil {
				out = append(out, fmt.Sprintf("value %d (%s) is not an integer: refused with EINVAL", i+1, f))
			} else if sysctlDigitsRE.MatchString(f) {
				out = append(out, fmt.Sprintf("value %d (%s) is out of the 64-bit range: refused with EINVAL", i+1, f))
			} else {
				out = append(out, fmt.Sprintf("value %d (%q) is not a number: refused with EINVAL", i+1, f))
			}
			sev = max(sev, Warning)
			return out, sev
		}
		vals = append(vals, v)
		switch {
		case v < 0 && rg.Type == "long":
			if n := rg.NegativeRefusedSince; n != [2]int{} && kOK && !kver.AtLeast(n[0], n[1], 0) {
				out = append(out, fmt.Sprintf("value %d (%d) is negative: kernels before %d.%d ignore it silently and keep the old value", i+1, v, n[0], n[1]))
			} else {
				out = append(out, fmt.Sprintf("value %d (%d) is negative: refused with EINVAL (kernels before 5.17 ignore it silently)", i+1, v))
			}
			sev = max(sev, Warning)
		case v > typeMax:
			out = append(out, fmt.Sprintf("value %d (%d) is above the %s maximum %d: refused with EINVAL", i+1, v, rg.Type, typeMax))
			sev = max(sev, Warning)
		case rg.Type != "long" && v < rg.Min:
			out = append(out, fmt.Sprintf("value %d (%d) is below the minimum %d: refused with EINVAL (%s)", i+1, v, rg.Min, rg.Source))
			sev = max(sev, Warning)
		case maxV < typeMax && v > maxV:
			out = append(out, fmt.Sprintf("value %d (%d) is above the maximum %d: refused with EINVAL (%s)", i+1, v, maxV, why))
			sev = max(sev, Warning)
		}
	}
	writes := m.Form == "sysctl-w" || m.Form == "sysctl.conf"
	if writes && rg.Fields > 1 && len(vals) < rg.Fields {
		out = append(out, fmt.Sprintf("%d of %d values: the kernel sets the first %d and keeps the rest as they were", len(vals), rg.Fields, len(vals)))
		sev = max(sev, Info)
	}
	if writes && len(vals) > rg.Fields {
		out = append(out, fmt.Sprintf("%d values for a key that holds %d", len(vals), rg.Fields))
		sev = max(sev, Info)
	}
	if rg.Ordered && rg.Fields == 2 && len(vals) == 2 && vals[0] > vals[1] {
		out = append(out, fmt.Sprintf("the first value (%d) is above the second (%d): refused with EINVAL (%s)", vals[0], vals[1], rg.Source))
		sev = max(sev, Warning)
	}
	if rg.Ordered && len(vals) == 3 && sev < Warning && (vals[0] > vals[1] || vals[1] > vals[2]) {
		out = append(out, "accepted, but not in order: the kernel reads min, pressure/default, max as given")
		sev = max(sev, Info)
	}
	return out, sev
}
