package artifact

import (
	"encoding/json"
	"strings"
)

// journalctl's multi-line output modes put one journal record over many lines, of which one
// holds the message (systemd src/shared/logs-show.c, output_export, output_verbose and
// output_json under OUTPUT_JSON_PRETTY):
//
//	-o export       a "FIELD=value" line per field, a blank line after each record:
//	                "__CURSOR=s=...", "__REALTIME_TIMESTAMP=1764410000123456", ...,
//	                "_TRANSPORT=kernel", "MESSAGE=Mem-Info:"
//	-o verbose      "Sun 2026-11-29 10:01:02.123456 UTC [s=...;i=...;b=...;m=...;t=...;x=...]"
//	                and the fields below it indented four spaces: "    MESSAGE=Mem-Info:"
//	-o json-pretty  "{", a "\t\"FIELD\" : \"value\"," line per field, "}"
//	-o json-sse     "data: " and the -o json record, a blank line after each
//	-o json-seq     an RS byte (0x1e) and the -o json record (RFC 7464)
//
// Read line by line, a kernel splat in these modes was a page allocation failure's header
// and nothing of its report: each of its lines sat among a dozen lines of other fields, so
// the Mem-Info dump, the call trace and the kernel's release never reached the collectors
// (forms9). flattenJournalRecords writes each such record as the one line journalctl -o json
// gives it, which unwrapJSONRecord reads (its message, transport, priority, host and
// monotonic time), so every mode reads as -o json does. The other lines of the record go:
// the paste's line numbers after the first record count records, not lines.
//
// The text is changed only when its first screenful holds a journal field line; a record is
// taken only when it has a MESSAGE and a field only the journal writes (a cursor, a
// timestamp, a transport, a boot id), and a record whose message journald kept as bytes
// (not UTF-8; JSON prints it as an array) is left as it was.
const journalProbe = 1 << 16

func flattenJournalRecords(text string) string {
	probe := text[:min(len(text), journalProbe)]
	if !strings.Contains(probe, "MESSAGE=") && !strings.Contains(probe, `"MESSAGE"`) {
		return text
	}
	var b strings.Builder
	changed := false
	rest := text
	lines := make([]string, 0, 64)
	for len(rest) > 0 {
		var line string
		line, rest = cutLine(rest)
		lines = append(lines, line)
	}
	for i := 0; i < len(lines); {
		if rec, n := journalRecordAt(lines, i); n > 0 {
			b.WriteString(rec)
			b.WriteByte('\n')
			changed = true
			i += n
			// The blank line export writes after a record, and any between records: a
			// blank line would end the dump the records continue.
			for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
				if _, m := journalRecordAt(lines, i+1); m == 0 {
					break
				}
				i++
			}
			continue
		}
		b.WriteString(lines[i])
		if i < len(lines)-1 || strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
		i++
	}
	if !changed {
		return text
	}
	return b.String()
}

// journalMarkers are the fields only the journal writes: a record holding one of them and a
// MESSAGE is a journal record, not a text of "NAME=value" lines (an environment, a config).
var journalMarkers = map[string]bool{"__CURSOR": true, "__REALTIME_TIMESTAMP": true, "__MONOTONIC_TIMESTAMP": true,
	"_TRANSPORT": true, "_BOOT_ID": true, "_SOURCE_MONOTONIC_TIMESTAMP": true, "SYSLOG_IDENTIFIER": true}

// journalFieldLine splits "FIELD=value" (a journal field name: upper case, digits, '_').
func journalFieldLine(s string) (string, string, bool) {
	eq := strings.IndexByte(s, '=')
	if eq < 1 || eq > 64 {
		return "", "", false
	}
	for j := 0; j < eq; j++ {
		c := s[j]
		if !(c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9' && j > 0) {
			return "", "", false
		}
	}
	return s[:eq], s[eq+1:], true
}

// journalRecordAt reads the record of one of the three modes that starts at line i and
// returns it as a -o json line, with the lines it took (0: none starts there).
func journalRecordAt(lines []string, i int) (string, int) {
	if i >= len(lines) {
		return "", 0
	}
	s := lines[i]
	fields := map[string]string{}
	n := 0
	switch {
	case isVerboseHeader(s):
		n = 1
		for i+n < len(lines) && strings.HasPrefix(lines[i+n], "    ") {
			k, v, ok := journalFieldLine(lines[i+n][4:])
			if !ok {
				break
			}
			fields[k] = v
			n++
		}
		fields["__CURSOR"] = "verbose" // the header is the cursor
	case strings.HasPrefix(s, "data: {") || strings.HasPrefix(s, "\x1e{"):
		// -o json-sse ("data: " and the record, a blank line after it) and -o json-seq
		// (RFC 7464: the record after an RS byte): one record a line once the prefix goes.
		var m map[string]any
		if json.Unmarshal([]byte(s[strings.IndexByte(s, '{'):]), &m) != nil {
			return "", 0
		}
		for k, v := range m {
			if sv, ok := v.(string); ok {
				fields[k] = sv
			}
		}
		n = 1
	case strings.TrimSpace(s) == "{":
		var block strings.Builder
		for n = 0; i+n < len(lines) && n < 256; n++ {
			block.WriteString(lines[i+n])
			block.WriteByte('\n')
			if n > 0 && strings.HasPrefix(strings.TrimSpace(lines[i+n]), "}") {
				n++
				break
			}
		}
		var m map[string]any
		if json.Unmarshal([]byte(strings.TrimRight(strings.TrimSpace(block.String()), ",")), &m) != nil {
			return "", 0
		}
		for k, v := range m {
			if sv, ok := v.(string); ok {
				fields[k] = sv
			}
		}
		if _, ok := m["MESSAGE"]; ok && fields["MESSAGE"] == "" && m["MESSAGE"] != "" {
			return "", 0 // a message kept as bytes
		}
	default:
		for i+n < len(lines) {
			k, v, ok := journalFieldLine(lines[i+n])
			if !ok {
				break
			}
			fields[k] = v
			n++
		}
	}
	if _, ok := fields["MESSAGE"]; !ok || n == 0 {
		return "", 0
	}
	marked := false
	for k := range fields {
		if journalMarkers[k] {
			marked = true
			break
		}
	}
	if !marked {
		return "", 0
	}
	out := map[string]string{"MESSAGE": fields["MESSAGE"]}
	for _, k := range []string{"_TRANSPORT", "SYSLOG_IDENTIFIER", "PRIORITY", "_HOSTNAME", "_SOURCE_MONOTONIC_TIMESTAMP", "__REALTIME_TIMESTAMP"} {
		if v, ok := fields[k]; ok {
			out[k] = v
		}
	}
	// Without HTML escaping: the line is read by its text first ("<4>", "[<c0123>]" as
	// the kernel printed them), as journalctl -o json prints it.
	var j strings.Builder
	enc := json.NewEncoder(&j)
	enc.SetEscapeHTML(false)
	if enc.Encode(out) != nil {
		return "", 0
	}
	return strings.TrimSuffix(j.String(), "\n"), n
}

// isVerboseHeader: "Sun 2026-11-29 10:01:02.123456 UTC [s=...;i=...;b=...;m=...;t=...;x=...]",
// the line output_verbose starts a record with (its time, then the cursor in brackets).
func isVerboseHeader(s string) bool {
	o := strings.LastIndex(s, " [s=")
	return o > 10 && strings.HasSuffix(s, "]") && strings.Contains(s[o:], ";i=") && strings.Contains(s[o:], ";b=") &&
		s[0] >= 'A' && s[0] <= 'Z'
}
