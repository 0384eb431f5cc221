package tune

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// What sets a sysctl at the next boot, in the order it is set: the last assignment of a key
// wins.
//
// systemd-sysctl (sysctl.d(5)) reads *.conf from /etc/sysctl.d, /run/sysctl.d,
// /usr/local/lib/sysctl.d, /usr/lib/sysctl.d and /lib/sysctl.d. A file name in an earlier
// directory masks the same name in a later one (a link to /dev/null disables it), and all
// files are applied in the lexical order of their names, whatever their directory: a later
// name overrides an earlier one. /etc/sysctl.conf is read through /etc/sysctl.d/99-sysctl.conf
// (a link to ../sysctl.conf) under systemd, and last by procps `sysctl --system`.
//
// TuneD applies its active profile's [sysctl] section when its service starts, after
// systemd-sysctl; with reapply_sysctl (the default, tuned-main.conf(5)) it then applies the
// files of /run/sysctl.d, /etc/sysctl.d and /etc/sysctl.conf again, so those beat the
// profile while files under /usr do not (redhat-performance/tuned#226).

// bootSysctlDirsOrdered is sysctl.d(5)'s search path, highest precedence first.
var bootSysctlDirsOrdered = []string{"/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d", "/lib/sysctl.d"}

// tunedReapplied are the places TuneD's reapply_sysctl applies again after its profile.
var tunedReapplied = []string{"/run/sysctl.d/", "/etc/sysctl.d/", "/etc/sysctl.conf"}

// Maximum sizes read from boot configuration: a sysctl.d file is a few KiB.
const (
	maxBootFileBytes = 1 << 20
	maxBootFiles     = 1000
	maxTunedIncludes = 8
)

// BootSetting is one assignment of a key at boot.
type BootSetting struct {
	File  string `json:"file"` // the path on the host (without the test root)
	Line  int    `json:"line"`
	Key   string `json:"key"` // as written: a glob or a slash-separated key stays so
	Value string `json:"value"`
	// By says what applies it: "systemd-sysctl", "TuneD profile NAME", "TuneD reapply_sysctl".
	By string `json:"by"`
	// Ours is headroom's drop-in.
	Ours bool `json:"ours,omitempty"`
}

func (b BootSetting) String() string {
	return fmt.Sprintf("%s:%d %s = %s (%s)", b.File, b.Line, b.Key, b.Value, b.By)
}

// BootConfig is every sysctl assignment the next boot makes, in order.
type BootConfig struct {
	Settings []BootSetting
	// Problems are files that could not be read; what they set is unknown.
	Problems []string
}

// LoadBootConfig reads the boot configuration under root ("/" on a host, a directory laid out
// like one in tests). ours lists the paths (on the host, without root) of headroom's drop-ins.
func LoadBootConfig(root string, ours []string) *BootConfig {
	if root == "" {
		root = "/"
	}
	bc := &BootConfig{}
	isOurs := func(p string) bool {
		for _, o := range ours {
			if filepath.Clean(o) == p {
				return true
			}
		}
		return false
	}
	files := bootSysctlFiles(root, bc)
	var reapply []BootSetting
	for _, f := range files {
		ss := bc.readSysctlFile(f.shown, f.real, "systemd-sysctl", isOurs(f.shown))
		bc.Settings = append(bc.Settings, ss...)
		for _, s := range ss {
			for _, p := range tunedReapplied {
				if strings.HasPrefix(s.File, p) {
					s.By = "TuneD reapply_sysctl"
					reapply = append(reapply, s)
					break
				}
			}
		}
	}
	if prof, settings := bc.tunedSettings(root); prof != "" {
		bc.Settings = append(bc.Settings, settings...)
		if tunedReapplies(root) {
			bc.Settings = append(bc.Settings, reapply...)
		}
	}
	return bc
}

type bootFile struct{ shown, real string }

// bootSysctlFiles lists the sysctl.d files in the order systemd-sysctl applies them, then
// /etc/sysctl.conf when no 99-sysctl.conf link already brought it in (procps order).
func bootSysctlFiles(root string, bc *BootConfig) []bootFile {
	byName := map[string]bootFile{}
	for _, d := range bootSysctlDirsOrdered {
		ents, err := os.ReadDir(filepath.Join(root, d))
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				bc.Problems = append(bc.Problems, fmt.Sprintf("%s: %v", d, err))
			}
			continue
		}
		for _, e := range ents {
			name := e.Name()
			if !strings.HasSuffix(name, ".conf") || byName[name].shown != "" || len(byName) >= maxBootFiles {
				continue
			}
			shown := path.Join(d, name)
			byName[name] = bootFile{shown: shown, real: resolveUnder(root, shown)}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []bootFile
	sysctlConf := bootFile{shown: "/etc/sysctl.conf", real: filepath.Join(root, "etc/sysctl.conf")}
	haveConf := false
	for _, n := range names {
		f := byName[n]
		if f.real == "" {
			continue // masked: a link to /dev/null
		}
		if f.real == sysctlConf.real {
			f.shown += " → /etc/sysctl.conf"
			haveConf = true
		}
		out = append(out, f)
	}
	if !haveConf {
		out = append(out, sysctlConf)
	}
	return out
}

// resolveUnder follows one symbolic link of the host path p inside root ("" for /dev/null):
// an absolute target is the host's path, so it is looked up under root too.
func resolveUnder(root, p string) string {
	real := filepath.Join(root, p)
	t, err := os.Readlink(real)
	if err != nil {
		return real
	}
	if t == "/dev/null" {
		return ""
	}
	if filepath.IsAbs(t) {
		return filepath.Join(root, t)
	}
	return filepath.Join(filepath.Dir(real), t)
}

// readSysctlFile parses one sysctl.d file: "key = value" lines, '#' and ';' comments, a
// leading '-' that makes a failure to set the key not an error (sysctl.d(5)).
func (bc *BootConfig) readSysctlFile(shown, real, by string, ours bool) []BootSetting {
	data, err := readBounded(real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		bc.Problems = append(bc.Problems, fmt.Sprintf("%s: %v", shown, err))
		return nil
	}
	var out []BootSetting
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(make([]byte, 4096), maxBootFileBytes)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.TrimPrefix(strings.TrimSpace(k), "-")
		out = append(out, BootSetting{File: shown, Line: n, Key: k, Value: NormalizeValue(v), By: by, Ours: ours})
	}
	return out
}

func readBounded(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBootFileBytes+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxBootFileBytes {
		return "", fmt.Errorf("larger than %d bytes", maxBootFileBytes)
	}
	return string(data), nil
}

// tunedSettings reads TuneD's active profile (/etc/tuned/active_profile: one or more names)
// and the [sysctl] sections of each, includes first (TuneD merges an included profile
// under the including one).
func (bc *BootConfig) tunedSettings(root string) (string, []BootSetting) {
	data, err := readBounded(filepath.Join(root, "etc/tuned/active_profile"))
	if err != nil {
		return "", nil
	}
	names := strings.Fields(data)
	var out []BootSetting
	for _, n := range names {
		out = append(out, bc.tunedProfile(root, n, n, 0)...)
	}
	return strings.Join(names, " "), out
}

func (bc *BootConfig) tunedProfile(root, name, active string, depth int) []BootSetting {
	if depth > maxTunedIncludes || !ValidNetnsName(name) { // a profile name is a plain file name
		return nil
	}
	var shown, data string
	for _, d := range []string{"/etc/tuned/profiles", "/etc/tuned", "/usr/lib/tuned/profiles", "/usr/lib/tuned"} {
		p := path.Join(d, name, "tuned.conf")
		if s, err := readBounded(filepath.Join(root, p)); err == nil {
			shown, data = p, s
			break
		}
	}
	if shown == "" {
		bc.Problems = append(bc.Problems, fmt.Sprintf("TuneD profile %q (active: %s) not found", name, active))
		return nil
	}
	var out, own []BootSetting
	section, sectionType := "", ""
	by := "TuneD profile " + active
	for n, raw := range strings.Split(data, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section, sectionType = strings.TrimSpace(line[1:len(line)-1]), ""
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case section == "main" && k == "include":
			for _, inc := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
				out = append(out, bc.tunedProfile(root, inc, active, depth+1)...)
			}
		case k == "type":
			sectionType = v
		case section == "sysctl" || sectionType == "sysctl":
			own = append(own, BootSetting{File: shown, Line: n + 1, Key: k, Value: NormalizeValue(v), By: by})
		}
	}
	return append(out, own...)
}

// tunedReapplies reads reapply_sysctl from /etc/tuned/tuned-main.conf (default on).
func tunedReapplies(root string) bool {
	data, err := readBounded(filepath.Join(root, "etc/tuned/tuned-main.conf"))
	if err != nil {
		return true
	}
	on := true
	for _, raw := range strings.Split(data, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(raw), "=")
		if ok && strings.TrimSpace(k) == "reapply_sysctl" {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "0", "false", "no", "off":
				on = false
			default:
				on = true
			}
		}
	}
	return on
}

// For returns the assignments of key in the order the boot makes them; the last one wins.
func (bc *BootConfig) For(key string) []BootSetting {
	want, err := KeyPath(key)
	if err != nil {
		return nil
	}
	var out []BootSetting
	for _, s := range bc.Settings {
		if matchBootKey(s.Key, want) {
			out = append(out, s)
		}
	}
	return out
}

// matchBootKey compares a key as a sysctl.d file writes it (dotted or slashed, possibly a
// glob, as systemd-sysctl allows since v249) with a /proc/sys relative path.
func matchBootKey(written, want string) bool {
	p, err := KeyPath(written)
	if err != nil {
		// A glob has characters KeyPath refuses: match it on the dotted form.
		p = strings.ReplaceAll(written, ".", "/")
		ok, _ := path.Match(p, want)
		return ok
	}
	return p == want
}
