package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// A high-order allocation stated in prose, failing with ENOMEM and cured by dropping the
// caches (fix57c): "ifconfig wlan0 up" answers "SIOCSIFFLAGS: Cannot allocate memory", the
// author says the driver asks for an "order five allocation", and after "echo 3 >
// /proc/sys/vm/drop_caches" the same command works. The order is written in digits or in
// words ("order 5 allocation", "order-3 allocations", "Order five allocation"); the failure
// is the errno's text or name (strerror(ENOMEM), "ENOMEM") in the same text; the cure is
// drop_caches, which frees page cache and slab, so free memory was there and only a block
// of that order was missing. All three must be stated: an order without the failure is a
// question about a request, a failure without the cure fits a reserve too small as well.
// A sentence supposing the order ("if it asks for an order 5 allocation") states none.
var (
	reProseOrderAlloc = lazyre.New(`(?i)\border[- ]?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:allocations?|allocs?)\b`)
	reProseENOMEM     = lazyre.New(`Cannot allocate memory|\bENOMEM\b`)
	reProseDropCaches = lazyre.New(`\bdrop_caches\b`)
)

var orderWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// proseOrderENOMEM finds that text among the prose lines: the order, its line and sentence.
func (d *doc) proseOrderENOMEM() (order, no int, sentence string, ok bool) {
	enomem, cured := false, false
	found := false
	for _, p := range d.proseLines {
		enomem = enomem || reProseENOMEM.MatchString(p.text)
		cured = cured || reProseDropCaches.MatchString(p.text)
		if found {
			continue
		}
		for _, m := range reProseOrderAlloc.FindAllStringSubmatchIndex(p.text, -1) {
			s := sentenceAround(p.text, m[0], m[1])
			if hypotheticalUpTo(s, p.text[m[0]:m[1]]) || reNegated.MatchString(p.text[max(0, m[0]-24):m[0]]) {
				continue
			}
			w := strings.ToLower(p.text[m[2]:m[3]])
			o, err := strconv.Atoi(w)
			if err != nil {
				o = orderWords[w]
			}
			if o < 1 || o > 10 { // MAX_PAGE_ORDER is 10 on x86; an order-0 page is never fragmented
				continue
			}
			order, no, sentence, found = o, p.no, s, true
			break
		}
	}
	return order, no, sentence, found && enomem && cured
}
