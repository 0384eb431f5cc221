package artifact

import "strings"

// fix45c: PHP's memory_limit told in words or as written in php.ini ("memory_limit of 128M
// may be too low", "increase the memory_limit to 256", "memory_limit = 128M",
// "php_value memory_limit 256M", "ini_set('memory_limit', '512M')"). memory_limit is the
// most one script may allocate through Zend's allocator (main/main.c's PHP_INI_ENTRY
// "memory_limit", "128M" by default, php.ini-production; Zend/zend_alloc.c stops the
// request with "Allowed memory size of N bytes exhausted", which unreadserver.go reads):
// the interpreter's own per-request limit, no kill by the kernel and no figure of the
// host's memory. Tried only in a text where nothing else was read (statedFiguresUnread).

const whyStatedMemoryLimit = "a memory_limit setting with its size, told or as written in its configuration (PHP's php.ini memory_limit: the most one script may allocate through Zend's allocator, 128M by default; past it PHP stops the request with \"Allowed memory size of N bytes exhausted\"): the program's own limit on its allocations, not the host's memory and no kill by the kernel's OOM killer; headroom has no reader for it"

// statedMemoryLimit: t names the memory_limit setting as a word of its own (not
// hierarchical_memory_limit, a cgroup's memory.stat row, nor OpenTelemetry's
// memory_limiter) and a size follows within three words: "128M", "256", "1G", "-1" is none.
func statedMemoryLimit(t string) bool {
	const key = "memory_limit"
	if len(t) > 2048 || !hasDigit(t) {
		return false
	}
	for rest := t; ; {
		k := strings.Index(rest, key)
		if k < 0 {
			return false
		}
		before, after := rest[:k], rest[k+len(key):]
		rest = after
		if before != "" && isSettingNameByte(before[len(before)-1]) || after != "" && isSettingNameByte(after[0]) {
			continue
		}
		fields := strings.FieldsFunc(after, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '=' || r == ',' || r == '\'' || r == '"' || r == '(' || r == ')'
		})
		for j, f := range fields {
			if j == 3 {
				break
			}
			if memoryLimitSize(strings.Trim(f, "`*_.;:!?")) {
				return true
			}
		}
	}
}

// isSettingNameByte: a byte that continues a setting's name (a letter, digit, '_' or '.').
func isSettingNameByte(c byte) bool { return isNameByte(c) || c == '.' }

// memoryLimitSize: f is a size as memory_limit takes it: digits, then K, M or G (PHP's
// shorthand, also "MB"), or bare digits (bytes in php.ini; "to 256" in words); not a version.
func memoryLimitSize(f string) bool {
	n := 0
	for n < len(f) && f[n] >= '0' && f[n] <= '9' {
		n++
	}
	if n == 0 {
		return false
	}
	switch strings.ToLower(f[n:]) {
	case "", "k", "m", "g", "kb", "mb", "gb":
		return true
	}
	return false
}
