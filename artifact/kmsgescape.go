package artifact

import "strings"

// kmsgUnescapeNewlines turns the "\x0a" and "\x09" escapes of a /dev/kmsg record back into
// white space (fix52d): a multi-line printk (show_free_areas' global block) read from
// /dev/kmsg keeps its newlines as "\x0a". A line without a backslash is returned as it is.
func kmsgUnescapeNewlines(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	return strings.NewReplacer(`\x0a`, " ", `\x09`, " ").Replace(s)
}
