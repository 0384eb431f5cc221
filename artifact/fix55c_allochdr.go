package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// An allocation-failure header without its process (fix55c): "page allocation failure:
// order:5, mode:0x24000c0" with nothing before it. Every kernel since 2.6 prints the
// allocating task's comm first (4.4 warn_alloc_failed: "%s: page allocation failure:
// order:%u, mode:0x%x", current->comm; 4.9+ warn_alloc: pr_warn("%s: ", current->comm)
// then pr_cont of the rest, which a console or an interleaving CPU can leave on a line of
// its own), and then calls dump_stack(), whose first line names the same task
// (lib/dump_stack.c dump_stack_print_info: "CPU: %d PID: %d Comm: %.20s %s%s %s %.*s",
// 2.6's "Pid: %d, comm: %.20s %s %s %.*s"). When the header's comm is gone, that line says
// it. Only the task line on the line right after the header counts: one after the call
// trace or the Mem-Info belongs to another report (a BUG or WARNING that followed), and
// one after headers printed back to back (CPUs interleaving) to any of them.

// noteHeaderTask keeps the comm of the report's first task line (ls[j], the header ls[i])
// when it is the very next line of the text (by number: a line the reader dropped between
// them, a header repeated without its stamp, was there) and the header does not follow
// another header: headers printed back to back are CPUs interleaving their reports, and
// which of them the task line continues is not printed.
func (r *report) noteHeaderTask(kind, t string, ls []Line, i, j int) {
	if kind != "task" {
		r.afterTask = true
		return
	}
	if r.afterTask || r.headerComm != "" {
		return
	}
	s := strings.TrimSpace(t)
	if strings.HasPrefix(s, "nodemask=") {
		r.headerWrap++ // the header's own end, wrapped: the task line may follow it
		return
	}
	r.afterTask = true
	if ls[j].No != ls[i].No+1+r.headerWrap || i > 0 && isAllocHeader(ls[i-1].Text) {
		return
	}
	if comm, ok := cpusetLineComm(s); ok {
		r.headerComm = comm
		return
	}
	r.headerComm = taskLineComm(s)
}

// Lines of a warn_alloc report a page wrapped at its width (fix65i; g258's 5517, a commit
// message at 72 columns): the header's end ("nodemask=(null)" on a line of its own), the
// line 4.x prints after the header with the task's comm and cpuset (kernel/cgroup/cpuset.c
// cpuset_print_current_mems_allowed before 4.15: "%s cpuset=%s mems_allowed=%*pbl",
// current->comm: "mevent cpuset=/ mems_allowed=0"), and the task line's release cut from
// it ("4.19.8-1901020539.iot-lts2018-sos #1"). They belong to the report, and the cpuset
// line names the allocating task as the header's comm would.
var (
	reCpusetLine  = lazyre.New(`^(\S.{0,14}?) cpuset=\S* mems_allowed=[\d,-]+$`)
	reReleaseWrap = lazyre.New(`^\d+\.\d+[\w.+~-]* #\d+(?:\s|$)`)
)

func headerWrapLine(s string) bool {
	switch {
	case strings.HasPrefix(s, "nodemask="):
		return !strings.Contains(s, " ") || strings.HasPrefix(s[strings.IndexByte(s, ' ')+1:], "cpuset=")
	case strings.Contains(s, " cpuset=") && strings.Contains(s, " mems_allowed="):
		return reCpusetLine.MatchString(s)
	case s[0] >= '0' && s[0] <= '9' && strings.Contains(s, " #"):
		return reReleaseWrap.MatchString(s)
	}
	return false
}

// cpusetLineComm is the comm of a cpuset line ("mevent cpuset=/ mems_allowed=0").
func cpusetLineComm(s string) (string, bool) {
	m := reCpusetLine.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// taskLineComm is the comm a dump_stack task line names, blanks and all ("Comm: Web
// Content Not tainted ..."): what follows "Comm: " (or 2.6's "comm: ") up to the taint
// mark, at most TASK_COMM_LEN-1 = 15 bytes; "" when the line is no task line.
func taskLineComm(s string) string {
	if !reTaskLine.MatchString(s) {
		return ""
	}
	i := strings.Index(s, "Comm: ")
	if i < 0 {
		i = strings.Index(s, "comm: ")
	}
	if i < 0 {
		return ""
	}
	rest := s[i+len("Comm: "):]
	end := len(rest)
	for _, mark := range []string{" Not tainted", " Tainted:"} {
		if k := strings.Index(rest, mark); k >= 0 && k < end {
			end = k
		}
	}
	comm := strings.TrimSpace(rest[:end])
	if end == len(rest) || len(comm) > 15 {
		comm, _, _ = strings.Cut(rest, " ") // no taint mark: the first word, as reTaskLine reads it
	}
	if comm == "" || len(comm) > 15 {
		return ""
	}
	return comm
}
