package artifact

import "strings"

// top's summary lines under a translated locale (h13b): procps-ng's top.c prints its Tasks,
// Mem and Swap lines through gettext (po/zh_CN.po, ko.po, uk.po of procps-ng 4.x: the labels
// "Tasks", "Threads", "Mem ", "Swap" and the format strings "%s %s:~3 %9.9s~2total,~3
// %9.9s~2free,~3 %9.9s~2used,~3 %9.9s~2buff/cache", "... used.~3 %9.9s~2avail %s" and
// "%s:~3 %u ~2total,~3 %u ~2running, ..."): "MiB 内存:  15885.0 总共,    180.0 空闲,
// 14900.0 已用,    805.0 缓冲/缓存". topEnglish gives such a line in English words, so it is
// read like "MiB Mem :  15885.0 total, ..." with its unit. A line of ASCII only is returned
// as it is after one pass over its bytes.

// topLabelWords: the translated labels (spaces removed: Korean prints "스  왑", "작  업").
var topLabelWords = map[string]string{
	"内存": "Mem", "交换": "Swap", "任务": "Tasks", "线程": "Threads",
	"메모리": "Mem", "스왑": "Swap", "작업": "Tasks", "스레드": "Threads",
	"Пам": "Mem", "Своп": "Swap", "Завдання": "Tasks", "Потоки": "Threads",
}

// topBodyWords: the translated words after the figures.
var topBodyWords = map[string]string{
	// zh_CN
	"总共": "total", "空闲": "free", "已用": "used", "缓冲/缓存": "buff/cache", "可用": "avail",
	"运行中": "running", "睡眠": "sleeping", "已停止": "stopped", "僵尸": "zombie",
	// ko
	"총계": "total", "잔여": "free", "사용": "used", "버퍼/캐시": "buff/cache", "가용": "avail",
	"실행": "running", "대기": "sleeping", "멈춤": "stopped", "좀비": "zombie",
	// uk
	"загал": "total", "вільн": "free", "віль": "free", "вик": "used", "вико": "used",
	"буф/кеш": "buff/cache", "дост": "avail", "загалом": "total", "працює": "running",
	"приспано": "sleeping", "зупинено": "stopped", "зомбі": "zombie",
}

// topEnglish: t (trimmed) in English words when it is one of top's translated summary lines;
// t itself otherwise.
func topEnglish(t string) string {
	ascii := true
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return t
	}
	unit, rest := "", t
	if len(rest) > 4 && rest[1] == 'i' && rest[2] == 'B' && rest[3] == ' ' && strings.IndexByte("KMGTPE", rest[0]) >= 0 {
		unit, rest = rest[:4], rest[4:]
	}
	c := strings.IndexByte(rest, ':')
	if c < 0 || c > 40 {
		return t
	}
	label, ok := topLabelWords[strings.ReplaceAll(strings.TrimSpace(rest[:c]), " ", "")]
	if !ok || (unit == "") != (label == "Tasks" || label == "Threads") {
		return t
	}
	fs := fields(rest[c+1:])
	n := 0
	for i, f := range fs {
		w := strings.TrimRight(f, ",.")
		p := f[len(w):]
		if en, ok := topBodyWords[strings.TrimSuffix(w, ".")]; ok {
			fs[i] = en + p
			n++
		} else if en, ok := topLabelWords[w]; ok {
			fs[i] = en + p // "可用 内存": top's "avail Mem"
		}
	}
	if n < 3 {
		return t
	}
	if label == "Mem" {
		label = "Mem " // top's "MiB Mem :"
	}
	return unit + label + ": " + strings.Join(fs, " ")
}
