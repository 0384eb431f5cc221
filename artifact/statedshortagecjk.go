package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix49c (corpus 4089): the host's memory shortage told in Japanese or Chinese, with the
// reboot it forced: "サーバがメモリ不足に陥って,サーバを再起動するしかなくなってしまった" (the
// server fell into a memory shortage and had to be rebooted), "服务器内存不足，只能重启". The
// author states the machine ran out of memory; no kernel OOM report, oom_kill counter or
// memory figure says whether the OOM killer ran, what it killed, or how much memory there
// was. Evidence no rule can judge (issue 29): listed unread with what it states. The
// machine is the subject (サーバ, システム, 服务器, 主机), and the reboot is in the same
// sentence; a question (？), a condition (もし, 如果, なら, 的话) or a negation of the
// shortage (不足ではない, 不是内存不足) states nothing. (reTitleOOM reads メモリ不足 in a
// title only.)
const whyStatedShortageReboot = "a sentence states the machine ran short of memory and had to be rebooted; no kernel OOM report, oom_kill counter or memory figure here says whether the OOM killer ran, what it killed, or how much memory there was"

var reShortageReboot = lazyre.New(`(?:サーバー?|システム|マシン|ホスト|服务器|伺服器|系统|系統|主机|主機)(?:が|は|の)?(?:メモリー?|内存|記憶體|内存空间)(?:が)?不足(?:に陥|にな|し|で|，|,|、)[^。！？!?]{0,60}?(?:再起動|重启|重啟|リブート)`)

var reShortageNot = lazyre.New(`[？?]|もし|なら|如果|的话|的話|ではない|じゃない|不是|并非|並非`)

// statedShortageReboot: prose line t states the machine's memory shortage and the reboot.
func statedShortageReboot(t string) bool {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "不足") {
		return false
	}
	for _, m := range reShortageReboot.FindAllStringIndex(t, -1) {
		if !reShortageNot.MatchString(cjkSentenceAround(t, m[0], m[1])) {
			return true
		}
	}
	return false
}

// cjkSentenceAround: the sentence of t holding t[i:j], cut at the full stops of Japanese and
// Chinese (and ASCII's).
func cjkSentenceAround(t string, i, j int) string {
	lo := 0
	for _, stop := range []string{"。", "！", "？", ". ", "!", "?"} {
		if k := strings.LastIndex(t[:i], stop); k >= 0 && k+len(stop) > lo {
			lo = k + len(stop)
		}
	}
	hi := len(t)
	for _, stop := range []string{"。", "！", "？", ". ", "!", "?"} {
		if k := strings.Index(t[j:], stop); k >= 0 && j+k+len(stop) < hi {
			hi = j + k + len(stop)
		}
	}
	return t[lo:hi]
}
