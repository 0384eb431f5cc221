package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A Pastebin page copied whole starts with its header: the author's name ("Guest User", a
// user name), a blank line, the paste's title, a blank line, "a guest" for a guest paste,
// the date ("Nov 16th, 2018") and the syntax, size and counts ("text 44.96 KB | None | 0 0").
// The title is the author's heading for the paste ("Arch Linux ARM - dmesg output - OOM
// killer misbehaving"), the author's name is not (fix57b).
var (
	rePastebinDate = lazyre.New(`^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}(st|nd|rd|th), (19|20)\d\d$`)
	rePastebinSize = lazyre.New(`^\S+ [0-9.]+ KB \|`)
)

// pastebinAuthorHeader says whether text opens with a Pastebin page's header: a name on line
// 1, a blank line, a title on line 3, a blank line, then (after "a guest" for a guest paste)
// the paste's date, or its syntax-and-size line.
func pastebinAuthorHeader(text string) bool {
	var ls []string
	for len(ls) < 8 {
		line, rest, found := strings.Cut(text, "\n")
		ls = append(ls, strings.TrimSpace(line))
		if !found {
			break
		}
		text = rest
	}
	if len(ls) < 5 || ls[0] == "" || len(ls[0]) > 40 || ls[1] != "" || ls[2] == "" || ls[3] != "" {
		return false
	}
	k := 4
	if ls[k] == "a guest" {
		k++
	}
	for ; k < len(ls) && k <= 6; k++ {
		if rePastebinDate.MatchString(ls[k]) || rePastebinSize.MatchString(ls[k]) {
			return true
		}
	}
	return false
}
