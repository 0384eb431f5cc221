package artifact

import "strings"

// HotSpot's table of its flags (fix49e, corpus 4107): java -XX:+PrintFlagsFinal (and
// -XX:+PrintFlagsInitial, jinfo -flags' long form) prints one line per flag, its type, its
// name, "=" and its value, then its kind in braces (runtime/flags/jvmFlag.cpp
// JVMFlag::print_on: "%9s %-40s = %s", then "{product}", "{pd product}", "{manageable}",
// "{diagnostic}", "{experimental}", and since JDK 9 the origin, "{default}",
// "{ergonomic}", "{command line}"): "     bool ExitOnOutOfMemoryError = false {product}".
// It is the JVM's own settings (its heap sizes, what it does on an OutOfMemoryError), this
// host's JVM printing them, never the kernel's or the host's memory: named unread, no
// finding. Not this form: a sysctl.conf line "key = value" (no type word, no braces), a
// Java declaration "boolean x = false;" and a flag named in a sentence.

const hotspotFlagsWhy = "HotSpot's table of its own flags (java -XX:+PrintFlagsFinal, jvmFlag.cpp: \"TYPE NAME = VALUE {KIND}\"): the JVM's settings as it runs (-Xmx's MaxHeapSize, ExitOnOutOfMemoryError, the GC's), a process's configuration, not the host's memory and no event; headroom has no reader for it"

// hotspotFlagTypes: the flag types the table prints.
var hotspotFlagTypes = map[string]bool{
	"bool": true, "int": true, "uint": true, "intx": true, "uintx": true, "uint64_t": true,
	"size_t": true, "double": true, "ccstr": true, "ccstrlist": true,
}

// hotspotFlagKinds: the first words in braces after the value.
var hotspotFlagKinds = map[string]bool{
	"product": true, "pd": true, "manageable": true, "diagnostic": true, "experimental": true,
	"lp64_product": true, "C1": true, "C2": true, "ARCH": true, "JVMCI": true, "default": true,
	"ergonomic": true, "command": true, "commercial": true,
}

// hotspotFlagLine reports whether t is one line of that table.
func hotspotFlagLine(t string) bool {
	b := strings.IndexByte(t, '{')
	if b < 0 || len(t) > 512 {
		return false
	}
	fs := strings.Fields(t[:b])
	if len(fs) < 3 || len(fs) > 4 || !hotspotFlagTypes[fs[0]] || fs[2] != "=" {
		return false
	}
	if !hotspotFlagName(fs[1]) {
		return false
	}
	k := strings.IndexByte(t[b:], '}')
	if k < 0 {
		return false
	}
	kind, _, _ := strings.Cut(t[b+1:b+k], " ")
	return hotspotFlagKinds[kind]
}

// hotspotFlagName: a flag's name, letters and digits and '_', starting with a letter.
func hotspotFlagName(s string) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
