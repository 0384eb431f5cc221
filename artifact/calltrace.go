package artifact

import (
	"strings"
)

// Call traces as the kernel prints them under a report.
//
//	x86, 2.6:    " [<c01403a2>] __alloc_pages+0x2d2/0x3f0"
//	x86_64, 3.x: " [<ffffffff8113c8a5>] ? warn_alloc_failed+0xf5/0x150"   ("? " = not
//	             reliable: a stale return address found on the stack, dump_trace)
//	4.x-6.x:     " ? __alloc_pages_nodemask+0x2b5/0x360" and " e1000_alloc_rx_buffers+0x1a2/0x2c0 [e1000]"
//	markers:     "<IRQ>", "<EOI>", "</IRQ>", "<TASK>", "</TASK>", "<NMI>"
//	ARM:         "[<c002a7c8>] (dump_backtrace+0x0/0x11c) from [<c02b7b8c>] (dump_stack+0x18/0x1c)"
//	             (newer: "[<c010f4d4>] (unwind_backtrace) from [<c010b744>] (show_stack+0x10/0x14)"),
//	             after a "Backtrace:" line on older ARM kernels, with register lines
//	             " r7:00000002 r6:00000000 r5:00000020 r4:00000000".

// CallTrace is a parsed call trace: function names innermost first, and whether it ran in
// interrupt context.
type CallTrace struct {
	Functions   []string `json:"functions"`
	InInterrupt bool     `json:"in_interrupt,omitempty"`
	Unreliable  int      `json:"unreliable,omitempty"` // frames printed with "? "
	// ARM is true when the frames had ARM's "(func) from [<addr>]" form, which only
	// arch/arm prints (arch/arm/kernel/traps.c dump_backtrace_entry).
	ARM bool `json:"-"`
	// AddrBits is the width of the frames' addresses ("[<ffffffff8125660f>]": 64), the
	// kernel's word size; 0 when no frame printed one (traceAddressBits).
	AddrBits int `json:"-"`
}

// traceLineKind classifies one line that may belong to a call trace. It returns "" for lines
// that are not trace lines.
func traceLineKind(t string) string {
	s := strings.TrimSpace(t)
	if s == "" {
		return ""
	}
	switch s {
	case "Call Trace:", "Backtrace:", "Call trace:", "<IRQ>", "<EOI>", "</IRQ>", "<TASK>", "</TASK>", "<NMI>", "</NMI>", "<SOFTIRQ>", "</SOFTIRQ>", "[", "Stack:", "Exception stack:":
		return "marker"
	}
	if strings.HasPrefix(s, "[<") {
		return "frame"
	}
	if _, ok := cutPPCFrame(s); ok {
		return "frame"
	}
	if _, ok := cutSymbolBracket(s); ok {
		return "frame"
	}
	if len(s) >= 16 && strings.Trim(s, "=") == "" {
		return "marker" // 2.6 i386 show_trace's closing rule
	}
	if strings.HasPrefix(s, "<IRQ>") || strings.HasPrefix(s, "<EOI>") {
		return "frame"
	}
	if strings.HasPrefix(s, "Call Trace:") {
		return "frame"
	}
	if isRegisterLine(s) || isStackWords(s) {
		return "regs"
	}
	// 4.x+ frames without addresses: "? name+0x1/0x2", "name+0x1/0x2 [mod]"
	f := s
	if strings.HasPrefix(f, "? ") {
		f = f[2:]
	}
	if isSymOffset(firstField(f)) {
		return "frame"
	}
	return ""
}

// cutPPCFrame reads a powerpc stack frame (arch/powerpc/kernel/process.c show_stack:
// "[%p] [%p] %pS", the stack pointer and the return address, then " (unreliable)" for the
// first frame: "[c1c65940] [c07926d4] dump_stack_lvl+0x80/0xac (unreliable)") and returns
// the symbol and what follows it.
func cutPPCFrame(s string) (string, bool) {
	rest := s
	for range 2 {
		e := strings.IndexByte(rest, ']')
		if !strings.HasPrefix(rest, "[") || e < 2 || e > 17 || !isHex(rest[1:e]) {
			return "", false
		}
		rest = strings.TrimLeft(rest[e+1:], " ")
	}
	return rest, isSymOffset(firstField(rest))
}

// cutSymbolBracket reads a 2.6 i386 frame whose address was printed as a symbol in brackets
// (Ubuntu 2.6.24's print_symbol: "[oom_kill_process+0x10a/0x120] oom_kill_process+0x10a/0x120",
// with the module before a colon when it has one: "[agpgart:__alloc_pages+0x36c/0x3a0]
// __alloc_pages+0x36c/0x3a0") and returns what follows the bracket.
func cutSymbolBracket(s string) (string, bool) {
	e := strings.IndexByte(s, ']')
	if !strings.HasPrefix(s, "[") || e < 0 {
		return "", false
	}
	in := s[1:e]
	if c := strings.IndexByte(in, ':'); c >= 0 {
		in = in[c+1:]
	}
	rest := strings.TrimLeft(s[e+1:], " ")
	return rest, strings.Contains(in, "/0x") && isSymOffset(in) && isSymOffset(firstField(rest))
}

// isSymOffset reports whether s looks like "func+0x1a2/0x2c0" or "func+0x1a2".
func isSymOffset(s string) bool {
	p := strings.IndexByte(s, '+')
	if p <= 0 || !strings.HasPrefix(s[p+1:], "0x") {
		return false
	}
	for i := 0; i < p; i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// isRegisterLine matches ARM register dumps (" r7:00000002 r6:00000000") and x86 register
// lines ("RIP: 0010:...", "RSP: 0018:...", "EAX: 00000000 EBX: ...").
func isRegisterLine(s string) bool {
	f := firstField(s)
	if len(f) >= 3 && f[0] == 'r' && strings.Contains(f, ":") && isDigits(f[1:strings.IndexByte(f, ':')]) {
		return true
	}
	switch {
	case strings.HasPrefix(s, "RIP:"), strings.HasPrefix(s, "RSP:"), strings.HasPrefix(s, "RAX:"),
		strings.HasPrefix(s, "RDX:"), strings.HasPrefix(s, "RBP:"), strings.HasPrefix(s, "R10:"),
		strings.HasPrefix(s, "R13:"), strings.HasPrefix(s, "EIP:"), strings.HasPrefix(s, "EAX:"),
		strings.HasPrefix(s, "ESI:"), strings.HasPrefix(s, "DS:"), strings.HasPrefix(s, "Code:"):
		return true
	}
	return false
}

// isStackWords matches raw stack dumps: lines of 8- or 16-digit hex words.
func isStackWords(s string) bool {
	fs := fields(s)
	if len(fs) < 2 {
		return false
	}
	for _, f := range fs {
		if (len(f) != 8 && len(f) != 16) || !isHex(f) {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// addTraceLine adds the functions of one trace line to ct. pendingFrom carries the caller of
// the last ARM "from" frame, appended when the trace ends.
func (ct *CallTrace) addTraceLine(t string, pendingFrom *string) {
	s := strings.TrimSpace(t)
	if ct.AddrBits == 0 {
		ct.AddrBits = traceAddressBits(s)
	}
	if strings.Contains(s, "<IRQ>") || strings.Contains(s, "<SOFTIRQ>") {
		ct.InInterrupt = true
	}
	for _, m := range []string{"<IRQ>", "<EOI>", "</IRQ>", "<TASK>", "</TASK>", "<NMI>", "</NMI>", "Call Trace:"} {
		s = strings.ReplaceAll(s, m, "")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if strings.HasPrefix(s, "[<") && strings.Contains(s, ") from [<") {
		// ARM: "[<a>] (callee+off) from [<b>] (caller+off)"
		callee := parenSym(s)
		from := s[strings.Index(s, ") from [<")+1:]
		caller := parenSym(from)
		if callee != "" {
			if *pendingFrom != "" && *pendingFrom != callee {
				ct.Functions = append(ct.Functions, *pendingFrom)
			}
			ct.Functions = append(ct.Functions, callee)
		}
		*pendingFrom = caller
		ct.ARM = true
		ct.noteInterrupt(callee)
		return
	}
	if strings.HasPrefix(s, "[<") {
		if e := strings.IndexByte(s, ']'); e > 0 {
			s = strings.TrimSpace(s[e+1:])
		}
	}
	if rest, ok := cutPPCFrame(s); ok {
		s = rest
	} else if rest, ok := cutSymbolBracket(s); ok {
		s = rest
	}
	unreliable := false
	if strings.HasPrefix(s, "? ") {
		unreliable = true
		s = s[2:]
	}
	name := firstField(s)
	if strings.HasPrefix(name, "(") { // arm64 and old ARM print "(func+off)"
		name = strings.Trim(name, "()")
	}
	if p := strings.IndexByte(name, '+'); p > 0 {
		name = name[:p]
	}
	if name == "" || !isSymOffset(name+"+0x0") {
		return
	}
	if unreliable {
		ct.Unreliable++
		name = "? " + name
	}
	ct.Functions = append(ct.Functions, name)
	ct.noteInterrupt(name)
}

// noteInterrupt marks traces that ran in softirq or hardirq context even when the <IRQ>
// marker was not printed (2.6 kernels print none): the NET_RX softirq and irq entry points.
func (ct *CallTrace) noteInterrupt(name string) {
	switch strings.TrimPrefix(name, "? ") {
	case "__do_softirq", "do_softirq", "net_rx_action", "irq_exit", "do_IRQ", "handle_IRQ", "asm_do_IRQ",
		"__irq_svc", "handle_irq_event", "irq_enter", "do_softirq_own_stack", "run_ksoftirqd":
		ct.InInterrupt = true
	}
}

func parenSym(s string) string {
	i := strings.IndexByte(s, '(')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], ')')
	if j < 0 {
		return ""
	}
	name := s[i+1 : i+j]
	if p := strings.IndexByte(name, '+'); p > 0 {
		name = name[:p]
	}
	return name
}

// ParseCallTrace parses a pasted call trace (any era or architecture listed above).
func ParseCallTrace(text string) CallTrace {
	var ct CallTrace
	pending := ""
	for _, l := range SplitLines(text) {
		if k := traceLineKind(l.Text); k == "frame" || k == "marker" {
			ct.addTraceLine(l.Text, &pending)
		}
	}
	ct.finish(&pending)
	return ct
}

func (ct *CallTrace) finish(pendingFrom *string) {
	if *pendingFrom != "" && (len(ct.Functions) == 0 || ct.Functions[len(ct.Functions)-1] != *pendingFrom) {
		ct.Functions = append(ct.Functions, *pendingFrom)
		ct.noteInterrupt(*pendingFrom)
	}
	*pendingFrom = ""
}
