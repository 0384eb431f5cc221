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
	// procps-ng 4.x de.po "Spch", fr.po "Éch " and "Tâches", es.po "Intercambio" and
	// "Tareas", pl.po "RAM " and "Zadania", pt_BR.po "mem ", "swap" and "Tarefas" (h25b)
	"Spch": "Mem", "Éch": "Swap", "Tâches": "Tasks", "Intercambio": "Swap", "Tareas": "Tasks",
	"RAM": "Mem", "Zadania": "Tasks", "mem": "Mem", "swap": "Swap", "Tarefas": "Tasks",
	// top's own labels before translated words (fr "MiB Mem : … libr,", pl "MiB Swap: … razem,")
	"Mem": "Mem", "Swap": "Swap",
}

// topUnitWords: the scaled units translated where top's labels and words are not (ru.po:
// "МиБ Mem :   3924,0 total,   3072,8 free, ...", "МиБ Swap: ... avail Mem").
var topUnitWords = map[string]string{"КиБ": "KiB", "МиБ": "MiB", "ГиБ": "GiB", "ТиБ": "TiB"}

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
	// fr, es, pl, pt_BR (h25b): the Mem and Swap lines' words ("libr", "util.", "dispo Mem";
	// "libre", "usado.", "dispon Mem"; "razem", "wolne", "użyte.", "dost. RAM"; "livre",
	// "usados", "mem dispon.")
	"libr": "free", "util": "used", "tamp/cache": "buff/cache", "dispo": "avail",
	"libre": "free", "usado": "used", "búf/caché": "buff/cache", "dispon": "avail",
	"razem": "total", "wolne": "free", "użyte": "used", "buf/cache": "buff/cache", "dost": "avail",
	"livre": "free", "usados": "used",
	// their Tasks lines: fr "en cours, veille, veille-d, arrêté", es "ejecutar, hibernar,
	// detener", pt_BR "em exec., dormindo, parado, zumbi" ("en cours" and "em exec." are
	// joined first: topTaskPhrase)
	"veille": "sleeping", "arrêté": "stopped", "ejecutar": "running", "hibernar": "sleeping",
	"detener": "stopped", "dormindo": "sleeping", "parado": "stopped", "zumbi": "zombie",
	"running": "running", "zombie": "zombie",
	// top's own English words where only the label is translated (de: "MiB Spch : … total,")
	"total": "total", "free": "free", "used": "used", "buff/cache": "buff/cache", "avail": "avail",
}

// topEnglish: t (trimmed) in English words when it is one of top's translated summary lines;
// t itself otherwise.
func topEnglish(t string) string {
	ascii, comma := true, false
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			ascii = false
		} else if t[i] == ',' && i > 0 && i+1 < len(t) && isDigit(t[i-1]) && isDigit(t[i+1]) {
			comma = true
		}
	}
	if comma {
		t = topDecimalComma(t)
	}
	if len(t) > 5 && t[0] == '%' && t[1] == 'C' && t[2] == 'P' && t[3] == 'U' {
		// de.po and pt_BR.po "%CPU(s):", pl.po "%CPU:   ", pt_BR's per-CPU "%CPU0  :"
		if r, ok := strings.CutPrefix(t, "%CPU(s):"); ok {
			return "%Cpu(s):" + r
		}
		if r, ok := strings.CutPrefix(t, "%CPU:"); ok {
			return "%Cpu(s):" + r
		}
		return "%Cpu" + t[4:]
	}
	if ascii && !topASCIILabel(t) {
		return t
	}
	unit, rest := "", t
	unitTranslated := false
	if len(rest) > 4 && rest[1] == 'i' && rest[2] == 'B' && rest[3] == ' ' && strings.IndexByte("KMGTPE", rest[0]) >= 0 {
		unit, rest = rest[:4], rest[4:]
	} else if sp := strings.IndexByte(rest, ' '); sp > 0 && sp <= 8 && !ascii {
		if u, ok := topUnitWords[rest[:sp]]; ok {
			unit, rest, unitTranslated = u+" ", rest[sp+1:], true
		}
	}
	c := strings.IndexByte(rest, ':')
	if c < 0 || c > 40 {
		return t
	}
	label, ok := topLabelWords[strings.ReplaceAll(strings.TrimSpace(rest[:c]), " ", "")]
	if !ok || (unit == "") != (label == "Tasks" || label == "Threads") {
		return t
	}
	if label == "Tasks" && strings.Contains(rest, "razem:") {
		return plTopTasks(rest[c+1:])
	}
	body := rest[c+1:]
	if label == "Tasks" {
		body = strings.NewReplacer(" en cours,", " running,", " em exec.,", " running,").Replace(body)
	}
	fs := fields(body)
	known, translated := 0, unitTranslated || label != strings.TrimSpace(rest[:c])
	for i, f := range fs {
		w := strings.TrimRight(f, ",.")
		p := f[len(w):]
		if en, ok := topBodyWords[strings.TrimSuffix(w, ".")]; ok {
			fs[i] = en + p
			known++
			translated = translated || en != w
		} else if en, ok := topLabelWords[w]; ok {
			fs[i] = en + p // "可用 内存": top's "avail Mem"
		}
	}
	// pt_BR prints the label before its word ("98,2 mem dispon."): top's order is "avail Mem".
	for i := 0; i+1 < len(fs); i++ {
		if (fs[i] == "Mem" || fs[i] == "Mem.") && strings.HasPrefix(fs[i+1], "avail") {
			fs[i], fs[i+1] = "avail", "Mem"
		}
	}
	if known < 3 || !translated {
		return t // English words under an English label: top's own line
	}
	if label == "Mem" {
		label = "Mem " // top's "MiB Mem :"
	}
	return unit + label + ": " + strings.Join(fs, " ")
}

// topASCIILabel: an ASCII line that may be one of top's translated Mem, Swap or Tasks lines
// (de "MiB Spch :", es "MiB Intercambio:", pl "MiB RAM :", pt_BR "MiB mem :", "Tareas:",
// "Zadania:", "Tarefas:"); English lines and every other line go on after this test.
func topASCIILabel(t string) bool {
	if len(t) > 4 && t[1] == 'i' && t[2] == 'B' && t[3] == ' ' {
		return true // "MiB Spch :", or "MiB Mem :" before fr's "libr" and "util"
	}
	return len(t) > 7 && (t[0] == 'T' && t[1] == 'a' && t[2] == 'r' || t[0] == 'Z' && strings.HasPrefix(t, "Zadania:"))
}

// topDecimalComma: top's figures under a locale whose decimal separator is a comma (de_DE,
// fr_FR, es_ES, it_IT, pt_BR, pl_PL, nl_NL: top and uptime print with %.1f and %.2f after
// setlocale, "MiB Mem :   7821,4 total,", "load average: 8,12, 7,90, 6,55") with a point.
// A comma between digits is a decimal comma unless the digits before it follow a point
// ("0.15,0.20", two figures run together); top groups no thousands.
func topDecimalComma(t string) string {
	b := []byte(t)
	for i := 1; i+1 < len(b); i++ {
		if b[i] != ',' || !isDigit(b[i-1]) || !isDigit(b[i+1]) {
			continue
		}
		j := i - 1
		for j > 0 && isDigit(b[j-1]) {
			j--
		}
		if j > 0 && b[j-1] == '.' {
			continue
		}
		b[i] = '.'
	}
	return string(b)
}

// plTopTasks: pl.po's Tasks line, each count after its word ("Zadania: razem: 231,
// działających:   3, sen: 228, sen d:   0, zatrzymanych:   0, zombie:   0"), in top's words.
func plTopTasks(body string) string {
	words := map[string]string{"razem": "total", "działających": "running", "sen": "sleeping", "zatrzymanych": "stopped", "zombie": "zombie"}
	var b strings.Builder
	b.WriteString("Tasks:")
	for _, part := range strings.Split(body, ",") {
		w, v, ok := strings.Cut(part, ":")
		en, known := words[strings.TrimSpace(w)]
		if v = strings.TrimSpace(v); !ok || !known || v == "" || !isDigits(v) {
			continue
		}
		b.WriteString(" " + v + " " + en + ",")
	}
	return strings.TrimSuffix(b.String(), ",")
}
