package artifact

import "strings"

// More of procps-ng's translations of free's header and rows (po/ko.po, uk.po, sv.po,
// pt_BR.po, ro.po, de.po, es.po, fr.po, pl.po, zh_CN.po of procps-ng 4.x: the msgstr of
// free.c's "               total        used        free      shared  buff/cache   available"
// and of its older "... buffers       cache   available", and of "Mem:", "Low:", "High:",
// "Swap:", "Total:"), h13b. Korean's rows are printed with a space inside the word ("스  왑:",
// "하  위:", "총  계:"): freeRowName takes them with the spaces removed too.
func init() {
	for k, v := range map[string]string{
		// ko
		"총계": "total", "사용": "used", "여분": "free", "공유": "shared", "버퍼/캐시": "buff/cache",
		"가용": "available", "버퍼": "buffers", "캐시": "cache",
		// uk
		"загалом": "total", "використ.": "used", "вільна": "free", "спільна": "shared",
		"буфери/кеш": "buff/cache", "дост.": "available", "буфери": "buffers", "кеш": "cache",
		// sv
		"totalt": "total", "använt": "used", "fritt": "free", "delat": "shared", "buffertar": "buffers",
		"tillgängl.": "available",
		// pt_BR, ro, es (their "total" is English: the header starts with it)
		"total": "total", "usada": "used", "livre": "free", "compart.": "shared", "disponível": "available",
		"utilizată": "used", "liberă": "free", "partajată": "shared", "disponibilă": "available",
		"buffers": "buffers", "búferes": "buffers", "caché": "cache",
		// de, fr, pl
		"gemeins.": "shared", "gemns.": "shared", "tampons": "buffers", "użyte": "used",
		"bufory": "buffers", "buf/cache": "buff/cache",
	} {
		if _, ok := freeColumnWords[k]; !ok {
			freeColumnWords[k] = v
		}
	}
	for k, v := range map[string]string{
		"메모리": "Mem", "스왑": "Swap", "하위": "Low", "상위": "High", "총계": "Total",
		"低": "Low", "高": "High", "总计": "Total",
		"Пам.": "Mem", "Своп.": "Swap", "Нижня": "Low", "Верхня": "High", "Загалом": "Total",
		"Niedrig": "Low", "Hoch": "High", "Gesamt": "Total",
		"Baja": "Low", "Alta": "High", "Inter": "Swap", "Baixa": "Low",
		"Basse": "Low", "Haute": "High", "Échange": "Swap",
		"Niska": "Low", "Wysoka": "High", "Wymiana": "Swap", "Razem": "Total",
		"Minne": "Mem", "Lågt": "Low", "Högt": "High", "Växl.": "Swap", "Totalt": "Total",
		// procps-ng 3.3.x fr.po's Swap row, before "Échange:" (h25b)
		"Partition d'échange": "Swap",
	} {
		if _, ok := freeRowWords[k]; !ok {
			freeRowWords[k] = v
		}
	}
}

// freeRowNameSpaced: a translated row name printed with spaces inside it (Korean's "스  왑").
func freeRowNameSpaced(name string) (string, bool) {
	if !strings.Contains(name, " ") {
		return "", false
	}
	en, ok := freeRowWords[strings.ReplaceAll(name, " ", "")]
	return en, ok
}
