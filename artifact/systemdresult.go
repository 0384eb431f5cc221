package artifact

import (
	"fmt"
	"slices"
	"strings"

	"headroom/internal/lazyre"

	"headroom/model"
)

// A unit's result "oom-kill" as systemd records it (fix18a). systemd sets a service's,
// scope's or socket's result to "oom-kill" (src/core/service.c SERVICE_FAILURE_OOM_KILL,
// service_result_to_string) when unit_check_oom (src/core/unit.c) saw the oom_kill count in
// the unit cgroup's memory.events rise, which the kernel raises for every kill its OOM
// killer makes in that cgroup (mm/oom_kill.c __oom_kill_process, MEMCG_OOM_KILL), whether
// the host or the cgroup ran out. systemd prints it two ways:
//
//	journal:         "wazuh-manager.service: Failed with result 'oom-kill'."
//	                 (unit_log_failure: "Failed with result '%s'.")
//	systemctl status "     Active: failed (Result: oom-kill) since Mon 2024-02-26 ..."
//	                 (systemctl-show.c: the state, then " (Result: %s)" when not success)
//
// Either is a kill the kernel made, its scope not said, as systemdOOMMsg is. Another result
// ("exit-code", "signal", "timeout") is no kill; a sentence that only names the result
// ("systemctl would show Result: oom-kill") is neither form and stays prose.
const (
	systemdFailedOOM = ": Failed with result 'oom-kill'."
	systemctlOOM     = "(Result: oom-kill)"
)

// systemdFailedOOMLine reads systemd's journal line "UNIT: Failed with result 'oom-kill'."
// The unit's "A process of this unit has been killed by the OOM killer." logged just before
// it is the same kill: it is not counted twice.
func (d *doc) systemdFailedOOMLine(i int) bool {
	t := strings.TrimLeft(d.ls[i].Text, " \t") // a code block's or a quote's indent
	k := strings.Index(t, systemdFailedOOM)
	if k <= 0 || strings.IndexByte(t[:k], ' ') >= 0 || !isBlank(t[k+len(systemdFailedOOM):]) {
		return false
	}
	unit := t[:k]
	d.used[i] = true
	if n := len(d.tl.RuntimeOOMs); n > 0 && strings.HasPrefix(d.tl.RuntimeOOMs[n-1].Reporter, "systemd for "+unit+" ") {
		return true // the unit's OOM line said it (systemdOOMLine)
	}
	if d.oomdKilledUnit(unit) {
		return true // systemd-oomd's kill of the unit, whose result systemd sets to oom-kill too (systemdoomdkill.go)
	}
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: "systemd for " + unit + " (Failed with result 'oom-kill')",
		Source: fmt.Sprintf("line %d", d.ls[i].No)})
	return true
}

// systemctlOOMResult reads systemctl status's "Active:" line whose result is oom-kill. The
// line starts with the field (after systemctl's indent); a sentence that quotes the
// words after a lead-in is no such line.
func (d *doc) systemctlOOMResult(i int) bool {
	t := d.ls[i].Text
	k := strings.Index(t, systemctlOOM)
	if k < 0 {
		return false
	}
	head := strings.TrimLeft(t[:k], " \t")
	unit := ""
	if !strings.HasPrefix(head, "Active: ") {
		// systemctl status flattened onto one line (h31d): its header and "Loaded:" field
		// before "Active:", as status prints them.
		a := strings.LastIndex(head, " Active: ")
		if a < 0 || !strings.Contains(head[:a], " Loaded: ") {
			return false
		}
		unit = systemctlStatusUnit(head[:a])
		head = head[a+1:]
	} else if i >= 2 {
		unit = systemctlStatusUnit(d.ls[i-2].Text) // the header, above "Loaded:"
	}
	state := strings.TrimSpace(strings.TrimPrefix(head, "Active: "))
	switch state {
	case "failed", "inactive (dead)", "activating (auto-restart)", "deactivating (stop-sigterm)", "deactivating (stop-sigkill)", "inactive", "activating":
	default:
		return false
	}
	d.used[i] = true
	reporter := "systemctl status (Result: oom-kill)"
	if mem := d.systemctlMemoryAfter(i, t[k:]); mem != "" {
		reporter = "systemctl status (Result: oom-kill; " + mem + ")"
	}
	if unit != "" {
		// The journal lines status prints below tell the same kill: systemdOOMLine and
		// systemdFailedOOMLine count them once with it.
		reporter = "systemd for " + unit + " (" + strings.TrimPrefix(strings.TrimSuffix(reporter, ")"), "systemctl status (") + " in systemctl status)"
		if d.systemctlOOMUnits == nil {
			d.systemctlOOMUnits = map[string]bool{}
		}
		d.systemctlOOMUnits[unit] = true
	}
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: reporter, Source: fmt.Sprintf("line %d", d.ls[i].No)})
	return true
}

// reSystemctlMem: status's memory fields, the unit cgroup's memory.current with its limits
// and peak ("Memory: 1.9G (high: 1.8G max: 2.0G peak: 2.0G)"), or the peak alone a stopped
// unit keeps ("Mem peak: 2.0G", systemd 256+).
var reSystemctlMem = lazyre.New(`\b(?:Memory: [\d.]+[BKMGTPE]?(?: \([a-z :\d.BKMGTPE]*\))?|Mem(?:ory)? peak: [\d.]+[BKMGTPE]?)`)

// systemctlMemoryAfter names the memory fields of the status whose Active: line is i (rest:
// the line from the result on, a status flattened onto one line): the unit's usage, limit and
// peak at its OOM kill, or "".
func (d *doc) systemctlMemoryAfter(i int, rest string) string {
	if strings.Contains(rest, "Mem") {
		if m := reSystemctlMem.FindString(rest); m != "" {
			return m
		}
	}
	for j := i + 1; j < len(d.ls) && j <= i+8; j++ {
		u := strings.TrimSpace(d.ls[j].Text)
		if u == "" || d.ls[j].Syslog {
			break
		}
		if strings.HasPrefix(u, "Mem") {
			if m := reSystemctlMem.FindString(u); m != "" && strings.HasPrefix(u, m) {
				return m
			}
		}
	}
	return ""
}

// systemctlStatusUnit is the unit systemctl status's header names: "● UNIT - DESCRIPTION"
// (the dot, or ×, ○, ↻, absent when piped), else "".
func systemctlStatusUnit(h string) string {
	h = strings.TrimLeft(h, " \t●×○↻*")
	u, _, ok := strings.Cut(h, " - ")
	if !ok || u == "" || strings.ContainsAny(u, " \t") ||
		!slices.ContainsFunc(systemdUnitSuffixes[:], func(s string) bool { return strings.HasSuffix(u, s) }) {
		return ""
	}
	return u
}

// KindSystemctlStatus is systemctl status's head of a unit (h31d): its name, "Loaded:",
// "Active:" and its memory fields, read so a pasted status is evidence headroom reads
// (neither show_mem's "Active:" nor the host's RAM) with the unit's figures named. It holds
// no fact a rule checks but the result oom-kill (systemctlOOMResult).
const KindSystemctlStatus = "systemctl_status"

// SystemctlStatus is one unit's status head.
type SystemctlStatus struct {
	Unit   string `json:"unit,omitempty"`
	Active string `json:"active"`
	Memory string `json:"memory,omitempty"` // "Memory: 1.9G (high: 1.8G max: 2.0G peak: 2.0G)" as printed
}

// systemctlStatusLine reads line i when it is status's "Active:" field right below its
// "Loaded:" field (status prints them so, the unit's header above).
func (d *doc) systemctlStatusLine(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if i == 0 || !strings.HasPrefix(t, "Active: ") || !strings.HasPrefix(strings.TrimSpace(d.ls[i-1].Text), "Loaded: ") {
		return false
	}
	s := SystemctlStatus{Active: strings.TrimPrefix(t, "Active: "), Memory: d.systemctlMemoryAfter(i, "")}
	first := d.ls[i-1].No
	if i >= 2 {
		if s.Unit = systemctlStatusUnit(d.ls[i-2].Text); s.Unit != "" {
			first = d.ls[i-2].No
		}
	}
	d.used[i] = true
	d.addArtifact(KindSystemctlStatus, first, d.ls[i].No, s)
	return true
}

// fix44a (corpus 3681): systemd's result line quoted whole in the author's words, most often
// the text's title over a body that does not log it: "ollama continues to run, and cannot kill
// ollama: \"nixos systemd[1]: ollama.service: Failed with result 'oom-kill'.\"". A tracker's
// title commonly quotes the log line its report is about (trackertitle.go); this one is
// systemd's own line, in quotes, its journal prefix ("HOST systemd[1]: ") kept or not, the
// unit a unit's name (systemdUnitSuffixes) and nothing after the line's final period. It is
// the same kill the journal line records (systemdFailedOOMLine). A wrapped or flattened paste
// moves the title (a code fence, one long line), so every prose line is looked at, as
// runtimeOOMQuoted does. A sentence that asks ("what does ... mean?"), supposes or advises,
// or a quote without a unit name ("Failed with result 'oom-kill'"), is no statement of the
// host's kill.
func (d *doc) systemdResultInTitle() {
	for _, p := range d.proseLines {
		if !strings.Contains(p.text, systemdFailedOOM) {
			continue
		}
		unit, open, ok := systemdResultQuoted(p.text)
		if !ok {
			continue
		}
		sentence := sentenceAround(p.text, open, open+1)
		if reTitleQuestion.MatchString(sentence) || reHypothetical.MatchString(sentence) {
			continue
		}
		for _, o := range d.tl.RuntimeOOMs {
			if strings.HasPrefix(o.Reporter, "systemd for "+unit+" ") {
				return // the text's own journal line said it, or a line above quoted it
			}
		}
		d.addRuntimeOOM(model.RuntimeOOM{Reporter: "systemd for " + unit + " (Failed with result 'oom-kill', its journal line quoted in the text)",
			Source: fmt.Sprintf("line %d", p.no)})
		return
	}
}

// systemdResultQuoted: the unit of systemd's "UNIT: Failed with result 'oom-kill'." quoted
// whole in t (in double quotes, curly quotes or backticks), with or without the journal's
// "HOST systemd[PID]: " before it, and the offset of the opening quote.
func systemdResultQuoted(t string) (string, int, bool) {
	k := strings.Index(t, systemdFailedOOM)
	end := k + len(systemdFailedOOM)
	open := strings.LastIndexAny(t[:k], "\"`“")
	if open < 0 {
		return "", 0, false
	}
	q, w := t[open], 1
	closing := string(q)
	if strings.HasPrefix(t[open:], "“") {
		closing, w = "”", len("“")
	}
	if !strings.HasPrefix(t[end:], closing) {
		return "", 0, false
	}
	inner := t[open+w : k]
	if s := strings.LastIndex(inner, ": "); s >= 0 {
		// the journal's prefix: "HOST systemd[1]" (or "systemd[1]") before the unit
		head := inner[:s]
		if !strings.HasSuffix(head, "]") || !strings.Contains(head, "systemd[") {
			return "", 0, false
		}
		inner = inner[s+2:]
	}
	if inner == "" || strings.ContainsAny(inner, " \t") || !slices.ContainsFunc(systemdUnitSuffixes[:], func(s string) bool { return strings.HasSuffix(inner, s) }) {
		return "", 0, false
	}
	return inner, open, true
}
