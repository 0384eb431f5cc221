package artifact

import (
	"testing"

	"headroom/model"
)

// fix39c: an out-of-memory told as a condition or as how a program behaves in general is
// no event of this host: the Indonesian "jika" (if) before it (corpus 3326) and the Korean
// plain present "발생한다" (it happens), whose stem is the past adnominal "발생한" (corpus
// 3337). The author's past event in the same languages stays read.
func TestFix39cStatedOOMConditionAndGeneral(t *testing.T) {
	for _, c := range []struct {
		text   string
		killed float64
	}{
		// corpus 3326 (masterweb helpdesk): the condition of a sysctl setting
		{"Kita dapat memilih jika terjadi kondisi OOM, kernel panic dan automatic reboot saja.\n", 0},
		{"Apabila terjadi OOM, kernel panic lalu reboot.\n", 0},
		// corpus 3337 (023-dev): how the JVM's old generation behaves in general
		{"오랫동안 살아남은 객체들이 저장되는 곳으로 여기가 100%차면 OOM이 발생한다.\n", 0},
		{"메모리가 부족하면 OOM이 일어난다.\n", 0},
		{"힙이 가득 차서 OOM이 발생한다면 컨테이너가 재시작된다.\n", 0},
		// counter-cases: the author's event, past tense, stays a stated kill
		{"어제 운영 서버에서 OOM이 발생했습니다.\n", 1},
		{"스왑이 없는 보드에서 어제 OOM이 발생했다.\n", 1},
		{"새벽에 OOM이 일어났다.\n", 1},
		{"배포 중에 OOM이 발생한 뒤 서버가 멈췄다.\n", 1},
		{"Server kami crash karena OOM kemarin malam.\n", 1},
		{"The server crashed with OOM last night.\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.killed {
			t.Errorf("%q: stated kill %v, want %v", c.text, got, c.killed)
		}
	}
}

// fix39c (corpus 3329): a Persian post stating free's figures in words is evidence
// headroom cannot read: its line is named unread (whyStatedFigure), not refused as empty
// (exit 3). Persian prose whose numbers are not of memory stays no figure.
func TestFix39cPersianMemoryFiguresUnread(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"total یا مجموع حافضه اصلی حدود 511 مگابایت است.", true},
		{"میزان Used استفاده شده از حافظه اصلی 437204 کیلو بایت و میزان فضای آزاد 73932 کیلوبایت است.", true},
		{"سرور ما 8 گیگابایت رم دارد.", true},
		// counter-cases: a count of cores, a year, a version: no memory figure
		{"این سرور 4 هسته و 2 کارت شبکه دارد.", false},
		{"این مقاله در سال 1399 نوشته شد.", false},
		{"دستور free میزان حافظه استفاده شده و آزاد را نشان می دهد.", false},
	} {
		if got := statesDomainFigure(c.line); got != c.want {
			t.Errorf("statesDomainFigure(%q) = %v, want %v", c.line, got, c.want)
		}
	}
	// The whole post: its figure line is named unread with what it holds.
	text := "دستور free میزان حافظه استفاده شده و آزاد را نشان می دهد.\n\n" +
		"میزان Used استفاده شده از حافظه اصلی 437204 کیلو بایت و میزان فضای آزاد 73932 کیلوبایت است.\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].Why != whyStatedFigure {
		t.Fatalf("unparsed = %+v, want line 3 named as a stated figure", tl.Unparsed)
	}
}
