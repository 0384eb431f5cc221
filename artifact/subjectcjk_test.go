package artifact

import (
	"strings"
	"testing"
)

// The conntrack-full message machine-translated inside its quotation marks, in a sentence
// that says the host's log receives it, is the host's record (corpus 1667, Japanese). The
// translated words in a question, a condition, a negation, without quotation marks, or
// without the log, and another message translated, state nothing.
func TestTranslatedConntrackFullStated(t *testing.T) {
	for _, text := range []string{
		"Hi\n\nクラスター内に、syslogで大量の「nf_conntrack:テーブルがいっぱいです。パケットをドロップしています」というメッセージを受け取るノードがあります。\n",
		"Hi\n\n最近 dmesg 里一直出现“nf_conntrack: 表已满，丢弃数据包”，连接经常超时。\n",
		"Hi\n\nログに「ip_conntrack: テーブルが満杯です、パケットを破棄します」が出ています。\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "conntrack: table full, dropping packet") {
			t.Errorf("%q: log %+v", text, tl.Log)
		}
	}
	for _, text := range []string{
		// A question, a condition, a possibility, a negation.
		"Hi\n\nsyslogに「nf_conntrack:テーブルがいっぱいです。パケットをドロップしています」と出力されるのはなぜですか？\n",
		"Hi\n\nsyslogに「nf_conntrack:テーブルがいっぱいです」が出力された場合は nf_conntrack_max を上げてください。\n",
		"Hi\n\n如果 dmesg 中出现“nf_conntrack: 表已满，丢弃数据包”，请调大 nf_conntrack_max。\n",
		"Hi\n\nsyslogには「nf_conntrack:テーブルがいっぱいです」は出力されていません。\n",
		// No quotation marks; no log; another message translated.
		"Hi\n\nsyslogで nf_conntrack:テーブルがいっぱいです というメッセージを受け取ります。\n",
		"Hi\n\n「nf_conntrack:テーブルがいっぱいです。パケットをドロップしています」nf_conntrack_countがnf_conntrack_maxよりはるかに小さい\n",
		"Hi\n\nsyslogで「nf_conntrack:ヘルパーを自動的に割り当てています」というメッセージを受け取ります。\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
}

// A key's value stated in Japanese or Chinese after the key is read as "is"/"to" are in
// English (corpus 1667); a multiple ("を2倍に", "是 2 倍") or a number of another thing is not.
func TestProseValueCJK(t *testing.T) {
	for in, want := range map[string]string{
		"は65535に設定されています。": "65535",
		"を約1000のままにします。":   "1000",
		" 设置为 65535，重启后生效": "65535",
		"为262144":          "262144",
		" is 65535 here.":  "65535",
		"を2倍にしました":         "",
		" 是 2 倍":           "",
		"は3台のノードで":         "",
		"に対して実行されていました":    "",
	} {
		if got := proseValue(in); got != want {
			t.Errorf("proseValue(%q) = %q, want %q", in, got, want)
		}
	}
	tl := ParseString("Hi\n\n$ uname -a\nLinux h 3.19.0-26-generic #28 SMP x86_64\nnf_conntrack_maxは65535に設定されています。\n", "p", Options{})
	found := false
	for _, m := range tl.Settings {
		found = found || m.Key == "net.netfilter.nf_conntrack_max" && m.Value == "65535"
	}
	if !found {
		t.Errorf("nf_conntrack_max: %+v", tl.Settings)
	}
}
