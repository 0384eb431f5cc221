package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix53b (round 48, corpus 4471, 4468, 4470): three forms of appliance pages.
//
// 1. A title naming an out-of-memory that the text itself calls a false belief (4471, a
// Check Point Gaia explainer "Check Point Memory consumption – Out of Memory": "you may be
// spooked and lead to believe you are out of memory", "the reason people thinks their
// systems is out of memory is because any available memory is borrowed by Linux for ..."),
// the genre of "Linux ate my RAM": the article's subject is the misreading of free's
// "free" column, not an out-of-memory on the host. The title is then a topic, not a
// statement of what happened. The belief must be someone else's or induced (reOOMBelief:
// "lead to believe", "people think", "you may think", "spooked", "fooled"): the author's
// own "I think we are out of memory" is a hedge about this host and stays a report.
//
// 2. FreeBSD's swap pager records (4468, a Citrix NetScaler on FreeBSD 6.3): "swap zone
// exhausted, increase kern.maxswzone" (sys/vm/swap_pager.c swp_pager_meta_build, FreeBSD
// <= 11; "swap blk zone exhausted, increase kern.maxswzone" from 12), its boot warning
// "warning: increase kern.maxswzone or reduce amount of swap." (swapon_check_swzone) and
// "swap_pager_getswapspace(N): failed" (swp_pager_getswapspace). kern.maxswzone sizes the
// zone of swap metadata, a FreeBSD sysctl Linux has no counterpart of; the pager then calls
// vm_pageout_oom(VM_OOM_SWAPZ), FreeBSD's own OOM, not Linux's. A text with no Linux kernel
// read that carries one is FreeBSD's: the records are named unread with what they prove.
//
// 3. Citrix NetScaler's packet-engine memory summary (4470, Citrix's 2012 blog; the same
// form in a Wireshark Q&A's nsconmsg -d memstats paste): "TotalMEM:  (grabbed/total)
// Allocated:  N(p%)   ActualInUse: N(p%)    Free:  N" over a "MEMPOOL MaxAllowd CurAlloc
// ErrLmtFailed ErrAllocFailed ErrFreeFailed" table of MEM_* pools. These are the nCore
// packet engines' own pools (NetScaler runs them over a FreeBSD kernel), no Linux meminfo
// figure: named unread, the system named NetScaler.

// reOOMBelief: an out-of-memory that someone is led to believe, thinks or fears, said by an
// author who explains why it is not so.
var reOOMBelief = lazyre.New(`(?i)(?:\b(?:lead|leads|led|leading)\s+(?:you\s+|one\s+|people\s+|users\s+|them\s+)?to\s+(?:believe|think)` +
	`|\b(?:people|users|admins|administrators|many|most|some|everyone|one)\s+(?:\w+\s+)?(?:think|thinks|believe|believes|assume|assumes|fear|fears)` +
	`|\byou\s+(?:may|might|would|will|could)\s+(?:\w+\s+)?(?:think|believe|assume)` +
	`|\b(?:spooked|fooled|misled|tricked|deceived)\b|\bmisconception|\bmyth\b)` +
	`[^.!?;]{0,80}?\bout[ -]of[ -]memory\b`)

// titleOOMOnlyBelieved reports whether a prose line other than the title (line titleNo)
// says the out-of-memory is a belief the text explains away.
func titleOOMOnlyBelieved(ps []proseLine, titleNo int) bool {
	for _, p := range ps {
		if p.no == titleNo || !containsFoldASCII(p.text, "memory") {
			continue
		}
		if m := reOOMBelief.FindStringIndex(p.text); m != nil {
			rest := p.text[m[1]:]
			if k := strings.IndexAny(rest, ".!?？"); k < 0 || rest[k] != '?' && !strings.HasPrefix(rest[k:], "？") {
				return true // a belief asked about ("Why do people think ... out of memory?") explains nothing away
			}
		}
	}
	return false
}

// freeBSDSwapPagerMarks: the swap pager's records only FreeBSD (and DragonFly) print.
var freeBSDSwapPagerMarks = []string{"zone exhausted, increase kern.maxswzone", "increase kern.maxswzone or reduce amount of swap", "swap_pager_getswapspace("}

const whyFreeBSDSwapZone = "FreeBSD's swap pager record (sys/vm/swap_pager.c: \"swap zone exhausted, increase kern.maxswzone\", swap_pager_getswapspace failed): the swap metadata zone or swap space of a FreeBSD kernel ran out and FreeBSD's own OOM (vm_pageout_oom) runs; another system's, no Linux counter or log line; on FreeBSD `swapinfo` and `vmstat -z | grep -i swap` show the swap and its zone, kern.maxswzone sizes it"

const whyNetScalerMem = "Citrix NetScaler's packet-engine memory summary (TotalMEM/Allocated/ActualInUse/Free and the MEMPOOL table, nsconmsg -d memstats or the Diagnostic page's Memory Usage): the nCore packet engines' own pools over NetScaler's FreeBSD kernel, no Linux meminfo figure; a pool's ErrAllocFailed or ErrLmtFailed above 0 is where it ran short"

// reNetScalerTotalMem: the summary line's fields in their order.
var reNetScalerTotalMem = lazyre.New(`\bTotalMEM:\s*\(\s*\d+\s*/\s*\d+\s*\)\s+Allocated:\s*\d+\s*\([\d.]+%\)\s+ActualInUse:\s*\d+`)

// reNetScalerPoolRow: a MEMPOOL row, "MEM_TCPBUFFP   67108863   62914560(93.75%  1.10%)  1550584  0  0".
var reNetScalerPoolRow = lazyre.New(`^\s*MEM_[A-Z0-9_]+\s+\d+\s+\d+\s*\(\s*[\d.]+%\s+[\d.]+%\s*\)\s+\d+\s+\d+\s+\d+\s*$`)

// applianceOwnUnread names a FreeBSD swap pager record or a NetScaler memory summary in a
// text with no Linux evidence read: the system it is from, and each such line unread.
func (d *doc) applianceOwnUnread(text string) {
	if d.tl.Host.Kernel != "" || !NothingRead(d.tl) {
		return
	}
	covered := func(no int) bool { // a line another reader named already keeps its reason
		for _, u := range d.tl.Unparsed {
			if u.FirstLine <= no && no <= u.LastLine {
				return true
			}
		}
		return false
	}
	var hits []unreadHit
	netscaler, bsd := false, ""
	for k, ls := range [][]proseLine{d.proseLines, d.otherLines} {
		for _, p := range ls {
			switch {
			case reNetScalerTotalMem.MatchString(p.text) || netscaler && reNetScalerPoolRow.MatchString(p.text):
				netscaler = true
				if covered(p.no) {
					continue
				}
				hits = append(hits, unreadHit{p.no, k == 1, whyNetScalerMem})
			case freeBSDSwapPagerLine(p.text):
				bsd = "swap pager's record"
				if covered(p.no) {
					continue
				}
				hits = append(hits, unreadHit{p.no, k == 1, whyFreeBSDSwapZone})
			}
		}
	}
	if !netscaler && bsd == "" {
		return
	}
	if d.tl.Host.OtherOS == "" {
		switch {
		case netscaler:
			d.tl.Host.OtherOS = "Citrix NetScaler (seen: its packet engines' TotalMEM memory summary)"
		default:
			name := bsdNamed(text)
			if name == "" || name == "macOS" || strings.HasPrefix(name, "OS") || strings.HasPrefix(name, "Mac") || name == "Darwin" {
				name = "FreeBSD"
			}
			d.tl.Host.OtherOS = name + " (seen: " + "the " + bsd + ", kern.maxswzone)"
		}
	}
	d.markUnread(hits)
}

// freeBSDSwapPagerLine: a line carrying one of FreeBSD's swap pager records.
func freeBSDSwapPagerLine(t string) bool {
	for _, m := range freeBSDSwapPagerMarks {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}
