package artifact

// A command quoted in a sentence whose number runs into the next sentence (fix28c, round 23's
// g107, corpus 2427): "I try to run sudo sysctl -w net.core.wmem_max=24266666.Then execute
// the sudo uhd_usrp_probe command." The writer left out the space after the full stop, so the
// unquoted value token is "24266666.Then"; the value written is 24266666 and the rest is the
// next sentence's first word. Only an unquoted token of digits, a full stop and a capitalised
// word is cut: "1.5" (a decimal), "1.0e3", "'24266666.Then'" (quoted: the value as written)
// and "eth0.Vlan" keep their text.

// cutRunOnSentence returns v without a following sentence glued on after its full stop.
func cutRunOnSentence(v string) string {
	n := len(leadingDigits(v))
	if n == 0 || n+2 >= len(v) || v[n] != '.' {
		return v
	}
	if c, d := v[n+1], v[n+2]; c >= 'A' && c <= 'Z' && d >= 'a' && d <= 'z' {
		return v[:n]
	}
	return v
}
