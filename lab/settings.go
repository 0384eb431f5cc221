package lab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"headroom/lab/netlab"
	"headroom/model"
)

// Settings is where a run's sysctl values come from: a named set or a file.
type Settings interface {
	// Name is how results show it ("fermilab", or the file name).
	Name() string
	// Changes returns the changes for one case (the headroom set depends on the link).
	Changes(p Params) ([]model.Change, error)
}

// SettingsSet is one named, registered settings set.
type SettingsSet struct {
	name    string
	Summary string
	// Source says where the values come from, for docs and `lab list`.
	Source  string
	changes func(p Params) ([]model.Change, error)
}

// Name implements Settings.
func (s *SettingsSet) Name() string { return s.name }

// Changes implements Settings.
func (s *SettingsSet) Changes(p Params) ([]model.Change, error) { return s.changes(p) }

func sysctlChange(key, value, why string) model.Change {
	return model.Change{Kind: model.ChangeSysctl, Key: key, Recommended: value, Why: why}
}

// settingsSets in the order `lab compare` prints them.
var settingsSets = []*SettingsSet{
	{
		name:    "kernel-default",
		Summary: "no changes: what a new namespace inherits",
		Source: "a new network namespace copies tcp_rmem/tcp_wmem and the congestion control " +
			"from the initial namespace (net/ipv4/tcp_ipv4.c: tcp_sk_init), so on an untuned host " +
			"these are the kernel's boot defaults (tcp.c: tcp_init); each run records the values in force",
		changes: func(Params) ([]model.Change, error) { return nil, nil },
	},
	{
		name:    "fermilab",
		Summary: "Fermilab's stable configuration (2.6.13 servers, 2005): 1 MiB receive, 128 KiB send maximum",
		Source:  "Fermilab (Bowden, Wu, Crawford, FNAL): \"tcp_wmem = 4096 32768 131072, tcp_rmem = 4096 87380 1048576 => system up for 20+ days\"",
		changes: func(Params) ([]model.Change, error) {
			return []model.Change{
				sysctlChange("net.ipv4.tcp_rmem", "4096 87380 1048576", "Fermilab's stable configuration"),
				sysctlChange("net.ipv4.tcp_wmem", "4096 32768 131072", "Fermilab's stable configuration"),
			}, nil
		},
	},
	{
		name:    "headroom",
		Summary: "what `headroom plan` computes for the case's link, streams and host memory",
		Source:  "plan.Compute (plan/plan.go)",
		changes: func(p Params) ([]model.Change, error) {
			return headroomSettings(p.RateBitsPerSec, p.RTT, p.Streams, p.MemoryBytes)
		},
	},
	{
		name:    "tuned-network-throughput",
		Summary: "TuneD's network-throughput profile: tcp_rmem/tcp_wmem max 16 MiB",
		Source:  "redhat-performance/tuned profiles/network-throughput/tuned.conf, as plan.Compute's guide",
		changes: func(p Params) ([]model.Change, error) { return guideSettings(p, "redhat-performance/tuned") },
	},
	{
		name:    "esnet",
		Summary: "ESnet fasterdata's tier for the link speed and RTT",
		Source:  "fasterdata.es.net/host-tuning/linux/, tier chosen by plan.Compute's guide",
		changes: func(p Params) ([]model.Change, error) { return guideSettings(p, "fasterdata.es.net") },
	},
}

// SettingsSets lists the registered sets in comparison order.
func SettingsSets() []*SettingsSet { return settingsSets }

// LookupSettings finds a registered set by name.
func LookupSettings(name string) (*SettingsSet, bool) {
	for _, s := range settingsSets {
		if s.name == name {
			return s, true
		}
	}
	return nil, false
}

// SettingsByNameOrFile resolves --settings: a registered name, else a file path.
func SettingsByNameOrFile(arg string) (Settings, error) {
	if s, ok := LookupSettings(arg); ok {
		return s, nil
	}
	f, err := os.Open(arg)
	if err != nil {
		names := make([]string, len(settingsSets))
		for i, s := range settingsSets {
			names[i] = s.name
		}
		return nil, fmt.Errorf("lab: settings %q is neither a set (%s) nor a readable file: %w", arg, strings.Join(names, ", "), err)
	}
	defer f.Close()
	ch, err := ParseSettingsFile(f, arg)
	if err != nil {
		return nil, err
	}
	return &fileSettings{name: arg, changes: ch}, nil
}

type fileSettings struct {
	name    string
	changes []model.Change
}

func (f *fileSettings) Name() string                           { return f.name }
func (f *fileSettings) Changes(Params) ([]model.Change, error) { return f.changes, nil }

// ParseSettingsFile reads a settings file: either JSON (a list of model.Change, or an object
// with a "settings" list such as `headroom plan --format json` prints) or sysctl.conf lines
// ("key = value", '#' and ';' comments, "-key = value" to ignore failures as sysctl(8) does,
// which the lab treats like any other key). name is used in errors.
func ParseSettingsFile(r io.Reader, name string) ([]model.Change, error) {
	b, err := io.ReadAll(io.LimitReader(r, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("lab: read %s: %w", name, err)
	}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{') {
		return parseSettingsJSON(trimmed, name)
	}
	var out []model.Change
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' || s[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return nil, fmt.Errorf("lab: %s:%d: want \"key = value\", got %q", name, line, s)
		}
		k = strings.TrimPrefix(strings.TrimSpace(k), "-")
		k = strings.ReplaceAll(k, "/", ".")
		v = netlab.NormalizeSysctl(strings.Trim(strings.TrimSpace(v), `"`))
		if _, err := netlab.SysctlPath(k); err != nil {
			return nil, fmt.Errorf("lab: %s:%d: %w", name, line, err)
		}
		if v == "" {
			return nil, fmt.Errorf("lab: %s:%d: %s has no value", name, line, k)
		}
		out = append(out, sysctlChange(k, v, fmt.Sprintf("%s:%d", name, line)))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lab: %s:%d: %w", name, line+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("lab: %s: no settings", name)
	}
	return out, nil
}

func parseSettingsJSON(b []byte, name string) ([]model.Change, error) {
	var list []model.Change
	if b[0] == '{' {
		var doc struct {
			Settings []model.Change `json:"settings"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("lab: %s: %w", name, err)
		}
		list = doc.Settings
	} else if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("lab: %s: %w", name, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("lab: %s: no settings", name)
	}
	for i, c := range list {
		if c.Kind == "" {
			list[i].Kind = model.ChangeSysctl
		}
		if list[i].Kind == model.ChangeSysctl {
			if _, err := netlab.SysctlPath(c.Key); err != nil {
				return nil, fmt.Errorf("lab: %s: setting %d: %w", name, i, err)
			}
		}
	}
	return list, nil
}

// guideSettings takes a peer recipe from the plan's guides, matched by source, so the lab
// and `headroom plan` show the same values and the same ESnet tier.
func guideSettings(p Params, source string) ([]model.Change, error) {
	pl, err := computePlan(p.RateBitsPerSec, p.RTT, p.Streams, p.MemoryBytes)
	if err != nil {
		return nil, err
	}
	for _, g := range pl.Guides {
		if strings.HasPrefix(g.Source, source) {
			return g.Settings, nil
		}
	}
	return nil, fmt.Errorf("lab: plan has no guide from %s", source)
}
