package tune

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"headroom/model"
)

// The renderers (--format sysctl, tuned, shell) write files that another program parses
// and acts on: sysctl -p and systemd-sysctl (one "key = value" per line, '#' and ';'
// comments, a leading '-' meaning "ignore a failure": procps sysctl.c Preload,
// systemd src/sysctl/sysctl.c), TuneD's profile loader (Python configparser with '=' as the
// only delimiter and '#' as a full-line and inline comment prefix, then ${...} variable and
// function expansion in every value: tuned/profiles/loader.py, tuned/profiles/variables.py;
// ${f:exec:...} runs a command) and sh. A change read from a plan or a doctor report is
// input like any other, so every key, value and comment a renderer writes passes
// checkRender first: a newline in a key would otherwise end a comment and start a live
// setting (issue 30 item 1). The check refuses rather than cleans, naming the change, since
// a file with a silently altered key would set something nobody asked for.

// maxRenderText bounds one key, value or comment: the renderers write settings and their
// reasons, never documents. A sysctl value longer than a page is refused by the kernel
// anyway (proc_sys_call_handler returns E2BIG above KMALLOC_MAX_SIZE; proc_dostring keeps at
// most maxlen, 4096 for the longest string sysctls).
const maxRenderText = 4096

// renderTextProblem says what makes s unfit for any rendered line: invalid UTF-8, a
// control character (C0, DEL, C1), a Unicode line or paragraph separator, or excess length.
// White space other than ' ' is a control character here: callers pass text already
// collapsed by oneLine or NormalizeValue where the input may legitimately hold it.
func renderTextProblem(s string) string {
	if len(s) > maxRenderText {
		return fmt.Sprintf("%d bytes, more than the %d a rendered line holds", len(s), maxRenderText)
	}
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				return fmt.Sprintf("invalid UTF-8 at byte %d", i)
			}
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == '\u2028', r == '\u2029':
			return fmt.Sprintf("control character %U at byte %d", r, i)
		}
	}
	return ""
}

// renderKeyProblem checks a sysctl key against the grammar the renderers write it in: the
// kernel's (KeyPath: components of letters, digits and ._-:@+, no empty or relative one)
// and sysctl.d's, whose loaders read a leading '-' as "ignore failure", '!' as "exclude"
// (systemd 254) and '#'/';' as a comment; so a key starts with a letter, digit or '_'.
func renderKeyProblem(key string) string {
	if _, err := KeyPath(key); err != nil {
		return err.Error()
	}
	if c := key[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
		return fmt.Sprintf("sysctl key %q starts with %q, which sysctl.d reads as a prefix, not part of the key", key, c)
	}
	return ""
}

// renderDevProblem checks an interface name as the renderers write it: in a TuneD section
// name ([net_DEV]) and its devices= list, where ',' separates devices, '!' negates and
// ${ expands, and quoted in sh. The kernel allows more (dev_valid_name: anything but '/',
// ':' and white space, at most 15 bytes); headroom renders only names of letters, digits and
// ._-@+, which every naming scheme in use (eth0, enp3s0f1, bond0.100, veth-a@b) fits.
func renderDevProblem(dev string) string {
	if !validDev(dev) {
		return fmt.Sprintf("%q is not an interface name", dev)
	}
	for _, r := range dev {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-@+", r)) {
			return fmt.Sprintf("interface name %q holds %q, which headroom does not render", dev, r)
		}
	}
	return ""
}

// renderValueProblem checks a sysctl value as apply writes it (NormalizeValue, no newline or
// NUL) and as TuneD reads it: '#' starts an inline comment and '$' a variable or function
// expansion there, so neither may appear in a value of any format (one file may be rendered
// in each), and no sysctl headroom sets takes them.
func renderValueProblem(v string) string {
	n := NormalizeValue(v)
	if n == "" {
		return "empty value"
	}
	if p := renderTextProblem(n); p != "" {
		return p
	}
	if i := strings.IndexAny(n, "#$"); i >= 0 {
		return fmt.Sprintf("%q at byte %d: a TuneD profile reads '#' as a comment and '$' as an expansion", n[i], i)
	}
	return ""
}

// changeRenderProblem checks every string of c that a renderer writes.
func changeRenderProblem(c model.Change) (field, problem string) {
	switch c.Kind {
	case model.ChangeSysctl:
		if p := renderKeyProblem(c.Key); p != "" {
			return "key", p
		}
		if p := renderValueProblem(c.Recommended); p != "" {
			return "recommended value", p
		}
	case model.ChangeEthtool, model.ChangeTC:
		parse := ParseEthtoolKey
		if c.Kind == model.ChangeTC {
			parse = ParseTCKey
		}
		dev, _, err := parse(c.Key)
		if err != nil {
			return "key", err.Error()
		}
		if p := renderDevProblem(dev); p != "" {
			return "key", p
		}
		if c.Kind == model.ChangeTC {
			if err := checkTCParams(c.Recommended); err != nil {
				return "recommended value", err.Error()
			}
		} else if n, err := strconv.Atoi(NormalizeValue(c.Recommended)); err != nil || n < 1 {
			return "recommended value", fmt.Sprintf("%q is not a positive ring size", clip(c.Recommended, 40))
		}
	case model.ChangeOther:
		// Advice is written only inside comments, so its key may be prose ("cgroup
		// /kubepods memory.max"), but it must stay on its line.
		if c.Key == "" {
			return "key", "empty"
		}
		if p := renderTextProblem(c.Key); p != "" {
			return "key", p
		}
		if p := renderTextProblem(oneLine(c.Recommended)); p != "" {
			return "recommended value", p
		}
	default:
		return "kind", fmt.Sprintf("unknown kind %q", c.Kind)
	}
	if p := renderTextProblem(oneLine(c.Why)); p != "" {
		return "reason", p
	}
	if p := renderTextProblem(c.Rule); p != "" {
		return "rule", p
	}
	return "", ""
}

// RenderError is a change (or a header text) that a renderer refuses to write.
type RenderError struct {
	Index   int // 1-based position among the changes; 0 for a header text
	Kind    string
	Key     string
	Field   string
	Problem string
}

func (e *RenderError) Error() string {
	if e.Index == 0 {
		return fmt.Sprintf("not rendered: %s: %s", e.Field, e.Problem)
	}
	return fmt.Sprintf("not rendered: change %d (%s %q): %s: %s; nothing was written",
		e.Index, e.Kind, clip(e.Key, 60), e.Field, e.Problem)
}

// checkRender is the one check every renderer runs before writing anything: each change,
// and the header texts (network namespace name, drop-in path) that go into comments.
func checkRender(changes []model.Change, headers ...string) error {
	for _, h := range headers {
		if p := renderTextProblem(h); p != "" {
			return &RenderError{Field: fmt.Sprintf("header text %q", clip(h, 60)), Problem: p}
		}
	}
	for i, c := range changes {
		if field, p := changeRenderProblem(c); p != "" {
			return &RenderError{Index: i + 1, Kind: c.Kind, Key: c.Key, Field: field, Problem: p}
		}
	}
	return nil
}
