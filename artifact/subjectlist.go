package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// A kernel message listed as an item under a lead-in that says the author saw the items in
// this host's log (fix19c, corpus 1738): "we have noticed 3 overflow problems in the kernel
// log:" then "1. Route cache chain too long", "2. Neighbor table overflow", "3. ip conntrack
// table full". The item is the message (kernel.FindMessage) or the words people shorten the
// conntrack-full message to (kernel.MsgConntrackFullNamed), alone on the item, an "ip "/"nf_"
// before them. Counter-cases: the same list under a question or a hypothetical lead-in ("How
// do I fix these in the kernel log:", "you may see in dmesg:"), a lead-in that says nothing
// of a log, an item that is a sentence naming the words ("raise the conntrack table full
// limit").

// reListLeadIn: the author (I, we) saw, noticed or found the items in the host's log.
var reListLeadIn = lazyre.New(`(?i)\b(?:i|we)\s+(?:have\s+|had\s+|also\s+|now\s+)?(?:see|saw|seen|get|got|notice|noticed|find|found|observe|observed|encounter|encountered|hit|getting|seeing)\b[^?]*\b(?:in|on|from)\s+(?:the\s+|my\s+|our\s+|its\s+)?(?:dmesg|syslog|kern\.log|messages|journal|kernel\s+logs?|system\s+logs?|logs?|console)\b`)

// reLeadInAsks: a lead-in that asks ("How do we get rid of these in the kernel log:").
var reLeadInAsks = lazyre.New(`(?i)^\W*(?:how|why|what|which|can|could|should|does|do|is|are|any)\b`)

// listItemBody is the text after a list marker ("1.", "2)", "-", "*"), "" when t is no item.
func listItemBody(t string) string {
	s := strings.TrimLeft(t, " \t")
	if s == "" {
		return ""
	}
	switch {
	case s[0] == '-' || s[0] == '*':
		s = s[1:]
	case s[0] >= '0' && s[0] <= '9':
		k := 0
		for k < len(s) && k < 3 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == len(s) || (s[k] != '.' && s[k] != ')') {
			return ""
		}
		s = s[k+1:]
	default:
		return ""
	}
	if s == "" || (s[0] != ' ' && s[0] != '\t') {
		return ""
	}
	return strings.TrimSpace(s)
}

// listItem is an item's text: after its marker, or the whole line when it is short and no
// sentence (the splitter drops a markdown list's "1. " before the loop sees the line).
func listItem(t string) string {
	if b := listItemBody(t); b != "" {
		return b
	}
	s := strings.TrimSpace(t)
	if len(s) > maxListItemBytes || strings.Contains(s, ". ") {
		return ""
	}
	return s
}

const maxListItemBytes = 80

// listedMessage is the message an item body names whole.
func listedMessage(body string) (string, bool) {
	if len(body) > 120 || strings.ContainsAny(body, "?？") {
		return "", false
	}
	b := strings.Trim(body, "\"'`“” .")
	if m, i, j, found := kernel.FindMessage(b); found && i <= 24 && len(b)-j <= 24 {
		return m, true
	}
	lb := strings.ToLower(b)
	for _, p := range []string{"ip ", "ip_", "nf_", "nf "} {
		lb = strings.TrimPrefix(lb, p)
	}
	for _, m := range kernel.MsgConntrackFullNamed {
		if rest, ok := strings.CutPrefix(lb, m); ok && (rest == "" || rest[0] == ',') {
			return "nf_conntrack: " + kernel.MsgConntrackFull[0], true
		}
	}
	return "", false
}

// listedLoggedMessage is the message line i lists under such a lead-in: the items and
// blank lines above it, at most listLeadInLines, then the lead-in, ending with ':'.
func (d *doc) listedLoggedMessage(i int) (string, bool) {
	body := listItem(d.ls[i].Text)
	if body == "" {
		return "", false
	}
	msg, ok := listedMessage(body)
	if !ok {
		return "", false
	}
	for j := i - 1; j >= 0 && j >= i-listLeadInLines; j-- {
		t := strings.TrimSpace(d.ls[j].Text)
		if t == "" || listItem(t) != "" && !strings.HasSuffix(t, ":") {
			continue
		}
		if !strings.HasSuffix(t, ":") || reHypothetical.MatchString(t) || strings.ContainsAny(t, "?？") {
			return "", false
		}
		if k := strings.LastIndexAny(t[:len(t)-1], ".!;"); k >= 0 {
			t = t[k+1:] // the lead-in's own sentence
		}
		if reLeadInAsks.MatchString(t) || !reListLeadIn.MatchString(t) {
			return "", false
		}
		return msg, true
	}
	return "", false
}

const listLeadInLines = 12
