package artifact

import (
	"slices"
	"strings"
)

// fix45a (corpus 3765): libnuma's error for a refused NUMA memory-policy system call. libnuma
// calls numa_error(name) when set_mempolicy(2), get_mempolicy(2) or mbind(2) fails (libnuma.c
// setpol, getpol, dombind), and its default numa_error is perror(name): the call's name, ": "
// and strerror(errno), alone on a line of the program's stderr ("set_mempolicy: Operation not
// permitted"). A program that places its threads' memory by node (x265's NUMA thread pools,
// numactl) prints it once per thread. EPERM is what a container gets when its seccomp profile
// refuses the call (Docker's default profile allows the three only with CAP_SYS_NICE): the
// policy is not applied and the thread allocates with the default local policy. The line
// proves neither a shortage of memory nor a failed allocation; no rule is decided from it.
//
// Only the whole line is perror's: a sentence that quotes it ("I get set_mempolicy: Operation
// not permitted, why?") or a man page's ERRORS list ("EPERM ...") is not the program's output.

const whyNUMAPolicyRefused = "libnuma's perror for a NUMA memory-policy system call that failed (libnuma.c numa_error after set_mempolicy, get_mempolicy or mbind: \"set_mempolicy: Operation not permitted\"); EPERM is a container's seccomp profile refusing the call (Docker's default allows it only with CAP_SYS_NICE): the thread's memory placement by node was not applied and it allocates with the default local policy; no shortage of memory and no failed allocation; no rule is decided from it"

// numaPolicySyscalls: the memory-policy calls whose failure libnuma reports through numa_error.
var numaPolicySyscalls = []string{"set_mempolicy", "get_mempolicy", "mbind"}

// numaPolicyErrLine: a line that is exactly perror's "CALL: strerror" for one of those calls,
// with one of the errnos the calls return (set_mempolicy(2) and mbind(2): EPERM, EINVAL,
// EFAULT, ENOMEM, EIO).
func numaPolicyErrLine(t string) bool {
	t = strings.TrimSpace(t)
	call, msg, ok := strings.Cut(t, ": ")
	if !ok || !slices.Contains(numaPolicySyscalls, call) {
		return false
	}
	switch msg {
	case "Operation not permitted", "Invalid argument", "Bad address", "Cannot allocate memory", "Input/output error":
		return true
	}
	return false
}

func init() {
	f := figureForm{numaPolicyErrLine, whyNUMAPolicyRefused}
	otherLineForms = append([]figureForm{f}, otherLineForms...)
	proseLineForms = append([]figureForm{f}, proseLineForms...)
}
