package tune

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"headroom/model"
)

// DefaultSysctlDir and DropInName place the drop-in where systemd-sysctl and procps
// `sysctl --system` read it at boot (sysctl.d(5)). The 90- prefix sorts it after
// distribution defaults (10-…, 50-…) and before the local 99-sysctl.conf link, so an
// administrator's own 99- file still wins.
const (
	DefaultSysctlDir = "/etc/sysctl.d"
	DropInName       = "90-headroom.conf"
)

// bootSysctlDirs are read at boot and applied to the initial network namespace only, so a
// drop-in meant for another namespace must not live there (sysctl.d(5)).
var bootSysctlDirs = []string{"/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d", "/lib/sysctl.d"}

// IsBootSysctlDir reports whether dir is read by systemd-sysctl at boot.
func IsBootSysctlDir(dir string) bool {
	c := filepath.Clean(dir)
	for _, d := range bootSysctlDirs {
		if c == d {
			return true
		}
	}
	return false
}

// dropInLine is one setting of a sysctl.d file with the comment lines above it, kept
// verbatim so that merging touches only the settings headroom changes.
type dropInLine struct {
	above []string // comment and blank lines before the setting
	key   string   // as written, without a leading '-'
	line  string   // the setting line as written
}

type dropIn struct {
	lines   []dropInLine
	trailer []string // comment and blank lines after the last setting
}

// parseDropIn splits a sysctl.d file into settings. Lines that are neither comments nor
// "key = value" are kept as comments so nothing is lost on rewrite.
func parseDropIn(content string) dropIn {
	var d dropIn
	var pending []string
	for _, l := range strings.Split(strings.TrimSuffix(content, "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' || t[0] == ';' {
			pending = append(pending, l)
			continue
		}
		k, _, ok := strings.Cut(t, "=")
		if !ok {
			pending = append(pending, l)
			continue
		}
		d.lines = append(d.lines, dropInLine{above: pending, key: strings.TrimPrefix(strings.TrimSpace(k), "-"), line: l})
		pending = nil
	}
	if content != "" {
		d.trailer = pending
	}
	return d
}

func (d dropIn) String() string {
	var b strings.Builder
	for _, l := range d.lines {
		for _, a := range l.above {
			b.WriteString(a + "\n")
		}
		b.WriteString(l.line + "\n")
	}
	for _, t := range d.trailer {
		b.WriteString(t + "\n")
	}
	return b.String()
}

// set replaces key's setting (matching sysctl(8) spellings: dots or slashes) or appends
// it. A replaced setting keeps the lines above it, except an earlier headroom reason for the
// same key, which the new reason replaces.
func (d *dropIn) set(key, value string, above []string, reason string) {
	want, _ := KeyPath(key)
	line := fmt.Sprintf("%s = %s", key, NormalizeValue(value))
	for i, l := range d.lines {
		if p, err := KeyPath(l.key); err == nil && p == want {
			var keep []string
			for _, a := range l.above {
				if !strings.HasPrefix(a, "# "+key+": ") && !strings.HasPrefix(a, "# "+l.key+": ") {
					keep = append(keep, a)
				}
			}
			d.lines[i] = dropInLine{above: append(keep, reason), key: key, line: line}
			return
		}
	}
	d.lines = append(d.lines, dropInLine{above: append(above, reason), key: key, line: line})
}

// dropInHeader opens a new drop-in. Only a drop-in that an apply journaled can be undone by
// --rollback; a rendered one (--format sysctl) has no journal entry and says so.
func dropInHeader(netns, path string, journaled bool) []string {
	first := "# Written by headroom tune. Undo with: headroom tune --rollback"
	if !journaled {
		first = "# Rendered by headroom tune --format sysctl. No journal: to undo, remove this file and set the old values by hand."
	}
	h := []string{first, "# Each setting follows the reason it was changed."}
	if netns != "" {
		h = append(h,
			fmt.Sprintf("# For network namespace %s only. Load with: ip netns exec %s sysctl -p %s", commentText(netns), commentText(netns), commentText(path)),
			"# (systemd-sysctl applies sysctl.d at boot to the initial namespace only: keep this file out of /etc/sysctl.d.)")
	}
	return h
}

// reasonComment is the comment line naming why a setting is there.
func reasonComment(c model.Change, stamp string) string {
	why := oneLine(c.Why)
	if why == "" {
		why = "no reason given"
	}
	s := "# " + c.Key + ": " + why
	var tags []string
	if c.Rule != "" {
		tags = append(tags, "rule "+c.Rule)
	}
	if stamp != "" {
		tags = append(tags, stamp)
	}
	if len(tags) > 0 {
		s += " (" + strings.Join(tags, "; ") + ")"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mergeDropIn returns the drop-in content with the sysctl changes set, starting from the
// current content (empty for a new file).
func mergeDropIn(current string, changes []model.Change, netns, path, stamp string) string {
	return mergeDropInHeader(current, changes, dropInHeader(netns, path, true), stamp)
}

// mergeDropInHeader is mergeDropIn with the header a new file starts with.
func mergeDropInHeader(current string, changes []model.Change, header []string, stamp string) string {
	d := parseDropIn(current)
	n := 0
	for _, c := range changes {
		if c.Kind != model.ChangeSysctl {
			continue
		}
		above := []string{""}
		if current == "" && n == 0 {
			above = append(append([]string(nil), header...), "")
		}
		d.set(c.Key, c.Recommended, above, reasonComment(c, stamp))
		n++
	}
	return d.String()
}

// readOptional reads a file that may not exist.
func readOptional(path string) (content string, exists bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}
