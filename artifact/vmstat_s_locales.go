package artifact

import "strings"

// vmstat -s under a translated locale (h25b): procps-ng's vmstat.c prints each memory line
// through gettext ("%13lu %s total memory\n", po/de.po "%13lu %s Gesamtspeicher", fr.po
// "mémoire totale", es.po "memoria total", pt_BR.po "de memória total"); pl.po puts the
// label first ("Pamięć razem:              %13lu %s"). vmstatSLine gives such a line's text
// in English, so the lines become the same meminfo names.
var vmstatSLocale = map[string]string{
	// de
	"K Gesamtspeicher": "K total memory", "K benutzter Speicher": "K used memory",
	"K aktiver Speicher": "K active memory", "K inaktiver Speicher": "K inactive memory",
	"K freier Speicher": "K free memory", "K Pufferspeicher": "K buffer memory",
	"K Auslagerungsspeicher-Cache": "K swap cache", "K Gesamt-Auslagerungsspeicher": "K total swap",
	"K benutzter Auslagerungsspeicher": "K used swap", "K freier Auslagerungsspeicher": "K free swap",
	// fr
	"K mémoire totale": "K total memory", "K mémoire utilisée": "K used memory",
	"K mémoire active": "K active memory", "K mémoire inactive": "K inactive memory",
	"K mémoire libre": "K free memory", "K mémoire tampon": "K buffer memory",
	"K mémoire échange": "K swap cache", "K échange total": "K total swap",
	"K échange utilisé": "K used swap", "K échange libre": "K free swap",
	// es
	"K memoria total": "K total memory", "K memoria usada": "K used memory",
	"K memoria activa": "K active memory", "K memoria inactiva": "K inactive memory",
	"K memoria libre": "K free memory", "K memoria de búfer": "K buffer memory",
	"K caché de intercambio": "K swap cache", "K intercambio total": "K total swap",
	"K intercambio usado": "K used swap", "K intercambio libre": "K free swap",
	// pt_BR
	"K de memória total": "K total memory", "K de memória usada": "K used memory",
	"K de memória ativa": "K active memory", "K de memória inativa": "K inactive memory",
	"K de memória livre": "K free memory", "K de memória em buffer": "K buffer memory",
	"K de cache de swap": "K swap cache", "K de swap total": "K total swap",
	"K de swap usada": "K used swap", "K de swap livre": "K free swap",
}

// vmstatSLabelFirst: pl.po's labels, each before its figure and unit.
var vmstatSLabelFirst = map[string]string{
	"Pamięć razem": "K total memory", "Pamięć użyta": "K used memory", "Pamięć aktywna": "K active memory",
	"Pamięć nieaktywna": "K inactive memory", "Pamięć wolna": "K free memory", "Pamięć buforów": "K buffer memory",
	"Pam. podr. obsz. wymiany": "K swap cache", "Obszar wymiany razem": "K total swap",
	"Obszar wymiany użyty": "K used swap", "Obszar wymiany wolny": "K free swap",
}

// vmstatSLabelFirstLine: "Pamięć razem:              8009114 K" as the value and the English
// text; ok false for any other line.
func vmstatSLabelFirstLine(s string) (int64, string, bool) {
	label, rest, ok := strings.Cut(s, ":")
	if !ok {
		return 0, "", false
	}
	en, ok := vmstatSLabelFirst[strings.TrimSpace(label)]
	if !ok {
		return 0, "", false
	}
	fs := strings.Fields(rest)
	if len(fs) != 2 || fs[1] != "K" {
		return 0, "", false
	}
	v, ok := atoi(fs[0])
	return v, en, ok
}
