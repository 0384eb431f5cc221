package diagnose

import (
	"strconv"
	"strings"

	"headroom/model"
)

// This file is the one way rules read a sysctl: the host's own value (live, capture,
// recording, a pasted `sysctl -a`) and the values a text names for it. A mention names a key
// when the reader resolved it to that key (model.SettingMention.Names: the key itself, the
// same words reordered, or the unique tail "tcp_mem"), so every rule agrees on which lines
// are about vm.min_free_kbytes.

// setting is one value of a sysctl and where it came from. A value a text names is what its
// author had or tried, not necessarily what the host runs, and Source says so.
type setting struct {
	Key     string // the kernel key
	Value   string
	Source  string
	Host    bool   // the host's current value, not a text's mention
	Line    int    // text line of a mention, 0 for a host value
	Form    string // a mention's form: "sysctl-w", "sysctl.conf", "sysctl-a", "prose"
	Written string // a mention's key as written, when it is not Key
	subject string // a mention's model.SettingMention.Subject
}

// settingMentions returns every value a text names for key, in text order.
func settingMentions(tl *model.Timeline, key string) []model.SettingMention {
	var out []model.SettingMention
	for _, m := range tl.Settings {
		if strings.TrimSpace(m.Value) != "" && m.Names() == key && m.Subject != model.SubjectOther {
			out = append(out, m)
		}
	}
	return out
}

// foreignMentions returns the values a text gives for key on another machine it describes
// (a quote, a test box): context for a finding, never the host's value.
func foreignMentions(tl *model.Timeline, key string) []model.SettingMention {
	var out []model.SettingMention
	for _, m := range tl.Settings {
		if strings.TrimSpace(m.Value) != "" && m.Names() == key && m.Subject == model.SubjectOther {
			out = append(out, m)
		}
	}
	return out
}

// statedOutcome returns the value a text says its author set for key with a good result
// ("after changing it to 20000 the problem went away"), the last one it gives.
func statedOutcome(tl *model.Timeline, key string) (model.SettingMention, bool) {
	var out model.SettingMention
	found := false
	for _, m := range tl.Settings {
		if m.Subject == model.SubjectOutcome && m.Names() == key && strings.TrimSpace(m.Value) != "" {
			out, found = m, true
		}
	}
	return out, found
}

func fromMention(key string, m model.SettingMention) setting {
	s := setting{Key: key, Value: strings.TrimSpace(m.Value), Source: netMentionSource(m), Line: m.Line, Form: m.Form, subject: m.Subject}
	if m.Key != key {
		s.Written = m.Key
	}
	return s
}

// settingValues returns the host's value of key first, when known, then every value a text
// names for it, in text order. A `sysctl -a` listing is the host's value, already taken.
func settingValues(tl *model.Timeline, key string) []setting {
	var out []setting
	v, src, hostHas := tl.Sysctl(key)
	if hostHas {
		out = append(out, setting{Key: key, Value: strings.TrimSpace(v), Source: src, Host: true})
	}
	for _, m := range settingMentions(tl, key) {
		if hostHas && m.Form == "sysctl-a" {
			continue
		}
		out = append(out, fromMention(key, m))
	}
	return out
}

// currentSetting returns the value a host runs with: its own, else the value a text states it
// had (prose or a sysctl -a listing). sysctl -w and sysctl.conf mentions are what an author
// changed it to, not what it was; see settingMentions.
func currentSetting(tl *model.Timeline, key string) (setting, bool) {
	for _, s := range settingValues(tl, key) {
		if s.subject == model.SubjectOutcome || s.subject == model.SubjectAdvice {
			continue // what the author set, or was told to: not what the host had
		}
		if s.Host || s.Form == "prose" || s.Form == "sysctl-a" {
			return s, true
		}
	}
	return setting{}, false
}

// settingInt is the first field of a setting as an integer.
func settingInt(s setting) (int64, bool) {
	f := strings.Fields(s.Value)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	return n, err == nil
}

// settingEvidence cites a setting, saying when the value is a text's words.
func settingEvidence(key string, s setting) Evidence {
	what := key
	if !s.Host {
		what += " (as the text states it, not read from the host)"
		if s.Written != "" {
			what += "; written " + s.Written
		}
	}
	return Evidence{What: what, Value: s.Value, Source: s.Source}
}
