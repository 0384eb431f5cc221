package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// The conntrack-full message as a machine translation renders it (issue 29, round 13: corpus
// 1667, a Japanese translation of a Server Fault question). Translation sites translate the
// kernel's own words inside the quotation marks and keep the "nf_conntrack:" prefix, which is
// an identifier: 「nf_conntrack:テーブルがいっぱいです。パケットをドロップしています」, “nf_conntrack:
// 表已满，丢弃数据包”. The English line never appears, so messageLoggedNow cannot see it.
//
// Read only as the English form is read in a sentence (messageLoggedNow): the prefix and
// the translated "table full" inside quotation marks, in a sentence that says the host's log
// receives or shows it. A question about it, a clause of condition or possibility ("...が出る
// 場合", "如果出现"), a negation, or the words without quotation marks state nothing.

// ctFullTranslated: "table" and "full" as Japanese and Chinese translations write them.
var ctFullTranslated = []struct{ table, full []string }{
	{[]string{"テーブル"}, []string{"いっぱい", "一杯", "満杯", "満タン", "フル"}},
	{[]string{"表", "表格"}, []string{"已满", "满了", "已滿", "滿了", "满", "滿"}},
}

// cjkQuoteOpen and cjkQuoteClose pair the quotation marks the translations use.
var cjkQuotePairs = [][2]string{{"「", "」"}, {"『", "』"}, {"“", "”"}, {"\"", "\""}, {"'", "'"}}

// Words of a sentence that says the host's log has the message: where it is logged, and
// the verb of receiving or printing it.
var (
	cjkLogPlaces = []string{"syslog", "dmesg", "kern.log", "/var/log/messages", "journal", "ログ", "日志", "日誌", "コンソール", "控制台"}
	cjkLogVerbs  = []string{"受け取", "受信", "出力され", "出力して", "表示され", "記録され", "出ています", "出ている", "出続け", "吐かれ", "吐いて", "発生して", "出现", "出現", "报出", "報出", "打印", "收到", "刷屏", "看到", "输出"}
	// A clause of condition, possibility or advice, a negation or a question.
	cjkNotStated = []string{"場合", "たら", "なら", "かもしれ", "ことがあ", "可能性", "でしょう", "ません", "ない", "如果", "假如", "若是", "可能", "会出现", "會出現", "没有", "沒有", "未出现", "不会", "?", "？", "か。"}
)

// translatedConntrackFull is the kernel's conntrack-full message when a prose line t quotes
// it translated and says this host logs it; ok is false otherwise.
func translatedConntrackFull(t string) (msg string, ok bool) {
	k := strings.Index(t, "conntrack:")
	if k < 3 || !cjkNonASCII(t) {
		return "", false // the cheap test first: the prefix and a non-ASCII script
	}
	if p := t[k-3 : k]; p != "nf_" && p != "ip_" {
		return "", false
	}
	start := k - 3
	before := strings.TrimRight(t[:start], " \t")
	body, end := "", -1
	for _, q := range cjkQuotePairs {
		if !strings.HasSuffix(before, q[0]) {
			continue
		}
		rest := t[k+len("conntrack:"):]
		if e := strings.Index(rest, q[1]); e >= 0 {
			body, end = rest[:e], k+len("conntrack:")+e+len(q[1])
		}
		break
	}
	if end < 0 || !translatedTableFull(body) {
		return "", false
	}
	// The sentence around the quotation: from the last full stop before it to the first
	// after it (the quotation's own full stops are the message's).
	head := before
	if i := cjkLastIndexAny(head, "。", "！", "？", ". "); i >= 0 {
		head = head[i:]
	}
	tail := t[end:]
	if i := cjkIndexAny(tail, "。", "！", "？"); i >= 0 {
		tail = tail[:i+len("。")]
	}
	sentence := head + " " + tail
	if !cjkContainsAny(sentence, cjkLogPlaces) || !cjkContainsAny(tail, cjkLogVerbs) && !cjkContainsAny(head, cjkLogVerbs) || cjkContainsAny(sentence, cjkNotStated) {
		return "", false
	}
	return t[start:k] + "conntrack: " + kernel.MsgConntrackFull[0], true
}

// translatedTableFull: the quoted words after the prefix say the table is full.
func translatedTableFull(body string) bool {
	if len(body) > 120 {
		return false
	}
	for _, w := range ctFullTranslated {
		for _, tb := range w.table {
			i := strings.Index(body, tb)
			if i < 0 {
				continue
			}
			if cjkContainsAny(body[i+len(tb):], w.full) {
				return true
			}
		}
	}
	return false
}

func cjkNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

func cjkContainsAny(s string, ws []string) bool {
	for _, w := range ws {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func cjkIndexAny(s string, ws ...string) int {
	best := -1
	for _, w := range ws {
		if i := strings.Index(s, w); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

func cjkLastIndexAny(s string, ws ...string) int {
	best := -1
	for _, w := range ws {
		if i := strings.LastIndex(s, w); i >= 0 && i+len(w) > best {
			best = i + len(w)
		}
	}
	return best
}

// A key's value stated in Japanese or Chinese prose right after the key (corpus 1667):
// "nf_conntrack_maxは65535に設定されています" (is set to 65535), "nf_conntrack_countを約1000
// のままにします" (keep it at about 1000), "nf_conntrack_max 设置为 65535". The particle or
// verb after the key takes the place of reProseValue's "is", "to", "="; the words after the
// number must say it is the value (set to, is, stays at) or end the clause, so "を2倍に"
// (double it) and "是 2 倍" are no value.
var reProseValueCJK = lazyre.New(`^\s*(?:は|が|を|の値は|为|為|是|设为|设置为|設為|設置為|改为|改成)\s*(?:約|约|大约|大約|およそ)?\s*(\d+)\s*(?:に設定|に変更|にし|に増|に上げ|に下げ|に留|です|でした|程度|のまま|[、，。,；;]|$)`)

// proseValue is the value a prose line states right after a key, in English (reProseValue)
// or in Japanese and Chinese (reProseValueCJK); "" when none.
func proseValue(after string) string {
	if v := reProseValue.FindStringSubmatch(after); v != nil {
		return v[1]
	}
	if after == "" || after[0] < 0x80 && after[0] != ' ' && after[0] != '\t' {
		return "" // the cheap test: a CJK particle follows the key
	}
	if v := reProseValueCJK.FindStringSubmatch(after); v != nil {
		return v[1]
	}
	return ""
}
