package artifact

import "strings"

// fix42c: an IDE's own memory report, logged as JSON (corpus 3568). RStudio's session
// (src/cpp/session/modules/SessionSystemResources.cpp) sends the client a
// "memory_usage_changed" event with the machine's total and used memory and the R session
// process's own, each as {"kb": N, "provider": P} (P the source it read: /proc/meminfo, a
// cgroup, ps); the client's get_events log, pasted as CSV rows, doubles the quotes
// (""kb"":2047012). The figures are RStudio's reading of some machine's memory (the server
// the session runs on), in a form no reader takes: the lines are named unread with what they
// hold; nothing is diagnosed from them.

const whyIDEMemoryEvent = "RStudio's own memory report (its session's \"memory_usage_changed\" event, SessionSystemResources.cpp: total, used and the R process's memory, each {\"kb\": N, \"provider\": P}): the server's memory as RStudio read it, at one moment per event; no /proc file or counter headroom reads, so no rule is decided from it"

// ideMemoryEvent: a line holding the event's type and at least one "kb" figure, its quotes
// plain or doubled by CSV.
func ideMemoryEvent(t string) bool {
	k := strings.Index(t, "memory_usage_changed")
	if k < 0 {
		return false
	}
	rest := t[k:]
	for _, key := range [...]string{`"kb":`, `""kb"":`} {
		if j := strings.Index(rest, key); j >= 0 && startsWithDigit(strings.TrimLeft(rest[j+len(key):], " ")) {
			return true
		}
	}
	return false
}

// fix42c (corpus 3592): a reporter's measurements listed one step a line, the step in words
// and the size after a dash or a colon at the line's end, in a thread that speaks of memory:
//
//	Stop then start and going to the main page - 21MB
//	Add a nzb download/verify/unrar/delete - 63MB
//
// No line names memory itself (statesDomainFigure needs a domain word beside the figure),
// yet the run is the reporter's own figures of a program's memory on their machine. Two
// consecutive such lines at least, and a memory word in the text's other prose lines; a single
// "... - 60MB" line, or a list in a text that never says memory (file sizes, downloads), is
// not named.

const whyMeasuredSizeList = "a list of sizes the reporter measured, one step a line (\"STEP - 21MB\"), in a text about a program's memory: the program's own size at each step on the reporter's machine, in words; no counter or /proc file headroom reads, so no rule is decided from it"

// measuredSizeLine: t ends in a size figure ("21MB", "63 MB", "1.2GiB") after " - ", " – " or
// ": ", with a word of letters before the separator.
func measuredSizeLine(t string) bool {
	s := strings.TrimRight(t, " \t.")
	i := len(s)
	for i > 0 && isASCIILetter(s[i-1]) {
		i--
	}
	if !sizeUnitWord(strings.ToLower(s[i:])) {
		return false
	}
	s = strings.TrimRight(s[:i], " ")
	j := len(s)
	for j > 0 && (s[j-1] >= '0' && s[j-1] <= '9' || s[j-1] == '.' || thousandsComma(s, j-1)) {
		j--
	}
	if j == len(s) || s[j] == '.' || s[j] == ',' {
		return false
	}
	label := ""
	for _, sep := range [...]string{" - ", " – ", ": "} {
		if strings.HasSuffix(s[:j], sep) {
			label = s[:j-len(sep)]
			break
		}
	}
	for k := 0; k < len(label); k++ {
		if isASCIILetter(label[k]) {
			return true
		}
	}
	return false
}

// measuredSizeLists: runs of two or more consecutive prose lines that measuredSizeLine
// takes and no other form named, when another prose line of the text holds a memory word.
func measuredSizeLists(ps []proseLine, hits []unreadHit) []unreadHit {
	named := make(map[int]bool, len(hits))
	for _, h := range hits {
		named[h.no] = true
	}
	var out []unreadHit
	for i := 0; i < len(ps); {
		j := i
		for j < len(ps) && !named[ps[j].no] && measuredSizeLine(ps[j].text) && (j == i || ps[j].no == ps[j-1].no+1) {
			j++
		}
		if j-i >= 2 && speaksOfMemory(ps, i, j) {
			for k := i; k < j; k++ {
				out = append(out, unreadHit{ps[k].no, false, whyMeasuredSizeList})
			}
		}
		if j == i {
			j++
		}
		i = j
	}
	return out
}

// speaksOfMemory: a prose line outside ps[from:to] holds a memory word.
func speaksOfMemory(ps []proseLine, from, to int) bool {
	for k := range ps {
		if k >= from && k < to {
			continue
		}
		for rest := ps[k].text; ; {
			f, r, ok := nextField(rest)
			if !ok {
				break
			}
			rest = r
			switch strings.ToLower(strings.Trim(f, "*_`'\"()[]{},.;:!?<>")) {
			case "memory", "ram", "rss", "heap":
				return true
			}
		}
	}
	return false
}
