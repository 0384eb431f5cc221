package artifact

import (
	"strconv"
	"strings"
)

// Self-hosted collaboration servers' own lines and Xen's toolstack lines (pre-round 16, h16b;
// each format string checked in the program's source). GitLab's Sidekiq memory killer and
// puma_worker_killer compare a worker's RSS with their own threshold and stop the worker
// themselves; Ruby prints "[FATAL] failed to allocate memory" when its allocator is refused
// and it cannot even raise NoMemoryError; git's fork refused with ENOMEM (Gitaly, Gitea)
// is the kernel's commit accounting; XAPI refuses a VM start when Xen's free memory is short.
// None is a kill by the kernel's OOM killer; a paste of only such lines exited 3 or was read
// as a sentence's figures.
//
// Gated with webAppForms (webAppOwnLine's loop): every form holds one of webAppGate's bytes
// or collabGate's ('K' "Killer", 'x' "exceeds", 'u' "out", 'y' "memory", 'H' "HOST_"); under any tag
// (collabOwnLine) one of "KxyHS" ('S' "Sidekiq", "RSS").

var collabForms = []ownLineForm{
	// puma_worker_killer lib/puma_worker_killer/puma_memory.rb / reaper.rb: "PumaWorkerKiller:
	// Out of memory. %d workers consuming total: %s mb out of max: %s mb. Sending TERM to pid
	// %d consuming %s mb." (GitLab's puma_stdout.log); the worker's RSS summed against
	// puma['per_worker_max_memory_mb'] × workers.
	{"PumaWorkerKiller: Out of memory.", "", true, "puma_worker_killer's own memory threshold (\"PumaWorkerKiller: Out of memory. N workers consuming total: T mb out of max: M mb. Sending TERM to pid P\"): the workers' summed RSS passed the gem's max (GitLab: puma['per_worker_max_memory_mb'] times the workers), and it sent TERM to the largest worker itself: Puma's own restart, no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// GitLab lib/gitlab/sidekiq_daemon/memory_killer.rb: message "Sidekiq worker RSS out of
	// range" with current_rss, soft_limit_rss, hard_limit_rss (KiB, from ps -o rss).
	{"Sidekiq worker RSS out of range", "", true, "GitLab's Sidekiq memory killer (Gitlab::SidekiqDaemon::MemoryKiller: \"Sidekiq worker RSS out of range\", current_rss against soft_limit_rss/hard_limit_rss in KiB, SIDEKIQ_MEMORY_KILLER_MAX_RSS): the worker's RSS passed GitLab's own threshold and GitLab stops the worker itself (SIGTSTP, SIGTERM, then SIGKILL from its own daemon): no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// GitLab lib/gitlab/sidekiq_middleware/memory_killer.rb (and sidekiq-worker-killer):
	// "Sidekiq worker PID-%d current RSS %d exceeds maximum RSS %d after finishing job ...",
	// "current RSS %d exceeds maximum RSS %d".
	{"current RSS ", " exceeds maximum RSS ", true, "a Sidekiq memory killer's own threshold (GitLab's Sidekiq MemoryKiller middleware, sidekiq-worker-killer: \"current RSS R exceeds maximum RSS M\", KiB from ps -o rss): the worker's RSS passed the killer's setting (SIDEKIQ_MEMORY_KILLER_MAX_RSS, max_rss) and the killer stops the worker itself (SIGTSTP/SIGTERM, SIGKILL after the grace time): no kill by the kernel's OOM killer and no statement about the host's free memory"},
	// Ruby gc.c rb_memerror: fprintf(stderr, "[FATAL] failed to allocate memory\n") and exit
	// when NoMemoryError cannot be raised (during GC, or no memory for the exception).
	{"[FATAL] failed to allocate memory", "", true, "Ruby's own out-of-memory (gc.c rb_memerror: \"[FATAL] failed to allocate memory\", the process exits): malloc or mmap returned NULL (ENOMEM: the host's overcommit accounting, RLIMIT_AS or RLIMIT_DATA, or a memory cgroup's limit at the commit) while Ruby could not raise NoMemoryError; no kill by the kernel's OOM killer; the kernel's or the cgroup's figures would say which limit"},
	// XAPI ocaml/idl/api_errors: host_not_enough_free_memory "HOST_NOT_ENOUGH_FREE_MEMORY",
	// params [needed; available] in bytes (xapi_vm_helpers, memory_check).
	{"HOST_NOT_ENOUGH_FREE_MEMORY, [", "", false, "XAPI refused to start or migrate a VM (XenServer/XCP-ng: Server_error(HOST_NOT_ENOUGH_FREE_MEMORY, [needed; available]) in bytes): Xen's free memory on the host (xl info's free_memory, after squeezed ballooned what it could) was below what the VM needs: the hypervisor's memory, not dom0's Linux memory manager; no kill and no finding of headroom's rules"},
	// Go's os/exec (Gitaly, gitlab-workhorse, Gitea, Forgejo): "fork/exec PATH: cannot
	// allocate memory": clone(2) returned ENOMEM.
	{"fork/exec ", ": cannot allocate memory", false, "a Go server's fork of a helper (git) was refused with ENOMEM (os/exec: \"fork/exec PATH: cannot allocate memory\"): clone() could not charge a copy of the parent's private writable memory: the host's commit accounting (vm.overcommit_memory 2 and CommitLimit, or mode 0's heuristic with RAM and swap short) or a memory cgroup; no kill by the kernel's OOM killer; overcommit-exposed would need `grep -E 'Committed_AS|CommitLimit' /proc/meminfo; sysctl vm.overcommit_memory`"},
	// fix47a (corpus 3931): the same fork refused with EAGAIN, a task limit (unreadfix47a.go).
	{"fork/exec ", ": resource temporarily unavailable", false, forkEAGAINWhy},
}

// collabGate: collabForms' bytes beside webAppGate's.
const collabGate = "H"

// collabOwnLine: one of collabForms' messages under any log prefix (Sidekiq's own
// "ISO pid TID-x WARN:" stamp reads as a syslog host and tag): their words are the
// programs' own, so no tag is needed.
func collabOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes && !jsonLogRecord(t) || strings.IndexAny(t, "KxyHS") < 0 {
		return "", false, false
	}
	for k := range collabForms {
		if why, ok := collabForms[k].match(t); ok {
			return why, collabForms[k].oom, true
		}
	}
	return "", false, false
}

// isCollabTag: these servers' and Xen's toolstack daemons' syslog tags ("bundle": Mastodon's and
// GitLab's units run Sidekiq and Puma under bundle exec; "python": Synapse's packaged unit runs
// its venv's python).
func isCollabTag(tag string) bool {
	switch tag {
	case "gitlab", "gitaly", "gitlab-workhorse", "puma", "sidekiq", "bundle", "ruby", "rails", "mastodon", "synapse",
		"matrix-synapse", "python", "python3", "mattermost", "rocketchat", "gitea", "forgejo",
		"xapi", "squeezed", "xenopsd", "xenopsd-xc", "xcp-rrdd", "xenstored", "xl":
		return true
	}
	return false
}

// xenToolLine: a line of Xen's own tools: `xl info`'s memory and version keys, a VM
// record's memory fields from `xe vm-list`/`xe vm-param-list`, and dom0_mem= on Xen's own
// command line. What it proves, and its figures (name, value) when it states one.
func xenToolLine(t string) (why, name, value string, ok bool) {
	if strings.IndexByte(t, '_') < 0 && strings.IndexByte(t, '-') < 0 {
		return "", "", "", false
	}
	s := strings.TrimSpace(t)
	// tools/xl/xl_info.c output_physinfo: printf("total_memory           : %"PRIu64"\n",
	// info.total_pages / ((1 << 20) / vinfo->pagesize)), likewise free_memory, in MiB.
	for _, k := range [...]string{"total_memory", "free_memory", "xen_version"} {
		if v, ok := keyColonValue(s, k); ok {
			if k == "xen_version" {
				return "`xl info`'s xen_version (tools/xl/xl_info.c output_xeninfo): the hypervisor's release, not the dom0 kernel's", k, v, true
			}
			if !startsWithDigit(v) {
				return "", "", "", false
			}
			return "`xl info`'s " + k + " in MiB (tools/xl/xl_info.c output_physinfo, from Xen's physinfo): the hypervisor's count of the machine's memory and of what no domain holds; dom0's own MemTotal is dom0_mem's share, so neither is the Linux memory manager's figure and no rule reads it", k + "_mib", firstField(v), true
		}
	}
	// xe's record printer: "memory-actual ( RO)    : 8589934592" (bytes).
	if strings.HasPrefix(s, "memory-") {
		if k := strings.Index(s, " ( R"); k > 0 && k < 30 {
			if c := strings.Index(s[k:], ": "); c > 0 {
				v := strings.TrimSpace(s[k+c+2:])
				if startsWithDigit(v) {
					return "a XAPI VM record's " + s[:k] + " in bytes (`xe vm-list`/`xe vm-param-list`): the domain's memory as the toolstack set or measured it, not the host's kernel figures", s[:k] + "_bytes", firstField(v), true
				}
			}
		}
	}
	// dom0_mem= on Xen's command line (xen/arch/x86/dom0_build.c parse_dom0_mem), as
	// `xl info`'s xen_commandline, Xen's "(XEN) Command line:" or grub's GRUB_CMDLINE_XEN*.
	if k := strings.Index(s, "dom0_mem="); k >= 0 && (strings.HasPrefix(s, "GRUB_CMDLINE_XEN") || strings.HasPrefix(s, "xen_commandline") || strings.Contains(s[:k], "(XEN) Command line:")) {
		return "Xen's command line sets dom0's memory (dom0_mem=, xen/arch/x86/dom0_build.c): this host's own setting: dom0's kernel sees that much as its RAM (its MemTotal), the rest is left to guests", "dom0_mem", valueField(s[k+len("dom0_mem="):]), true
	}
	return "", "", "", false
}

// keyColonValue: "key<spaces>: value" at s's start.
func keyColonValue(s, key string) (string, bool) {
	if !strings.HasPrefix(s, key) {
		return "", false
	}
	rest := strings.TrimLeft(s[len(key):], " \t")
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return strings.TrimSpace(rest[1:]), true
}

// valueField: s's first field without a closing quote (grub's GRUB_CMDLINE_XEN="...").
func valueField(s string) string { return strings.TrimRight(firstField(s), "\"'") }

// xenToolNamed names line i when it is one of xenToolLine's, with its figure.
func (d *doc) xenToolNamed(i int) bool {
	why, name, value, ok := xenToolLine(d.ls[i].Text)
	if !ok || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, why)
	if d.programFigureCount < maxProgramFigureArtifacts {
		d.programFigureCount++
		var v any = value
		if n, err := strconv.ParseInt(value, 10, 64); err == nil {
			v = n // MiB or bytes; dom0_mem's "4G,max:4G" and xen_version stay as written
		}
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, map[string]any{"program": "xen", name: v, "message": clip(strings.TrimSpace(d.ls[i].Text), 120)})
	}
	return true
}

// pumaKillerFigures: puma_worker_killer's MB figures hold fractions ("4871.23828125 mb"),
// which programFigureForms' integers would split: total and max, as written.
func (d *doc) pumaKillerFigures(i int) bool {
	t := d.ls[i].Text
	k := strings.Index(t, "PumaWorkerKiller: Out of memory.")
	if k < 0 {
		return false
	}
	data := map[string]any{"program": "puma_worker_killer"}
	for _, f := range [...]struct{ needle, name string }{{"consuming total: ", "total_mb"}, {"out of max: ", "max_mb"}} {
		if j := strings.Index(t[k:], f.needle); j >= 0 {
			if v, err := strconv.ParseFloat(firstField(t[k+j+len(f.needle):]), 64); err == nil {
				data[f.name] = v
			}
		}
	}
	if len(data) == 1 || d.programFigureCount >= maxProgramFigureArtifacts {
		return true
	}
	data["message"] = clip(strings.TrimSpace(t[k:]), 120)
	d.programFigureCount++
	d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, data)
	return true
}

func init() {
	type form = struct {
		program, needle string
		names           []string
		before          bool
	}
	programFigureForms = append(programFigureForms,
		form{"sidekiq", "current RSS ", []string{"current_rss_kib", "max_rss_kib"}, false},
		form{"sidekiq", `"current_rss":`, []string{"current_rss_kib", "soft_limit_rss_kib"}, false},
		form{"xapi", "HOST_NOT_ENOUGH_FREE_MEMORY, [", []string{"needed_bytes", "available_bytes"}, false},
	)
}
