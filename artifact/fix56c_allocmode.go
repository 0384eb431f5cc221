package artifact

import "strings"

// trimProseParen drops the parenthesis a sentence closes right after a quoted header's mode:
// "(e.g. swapper: page allocation failure: order:3, mode:0x20)". The kernel prints the mode
// either bare ("mode:0x20") or with its flag names in a balanced pair ("mode:0x2080020(GFP_ATOMIC)",
// 4.x+), so a ')' with no '(' before it in the mode is the prose's.
func trimProseParen(mode string) string {
	for strings.HasSuffix(mode, ")") && strings.Count(mode, ")") > strings.Count(mode, "(") {
		mode = strings.TrimRight(strings.TrimSuffix(mode, ")"), "*_`\"'\u201d\u2019.,;")
	}
	return mode
}
