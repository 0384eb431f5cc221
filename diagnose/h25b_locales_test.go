package diagnose

import (
	"strings"
	"testing"
)

// Output pasted from hosts under a European locale (h25b): top's summary with decimal commas
// and procps-ng's translated labels (de.po "Spch", fr.po "Éch"/"libr"/"util", es.po
// "Intercambio", pl.po "RAM"/"razem"/"wolne"/"użyte", pt_BR.po "mem"/"livre"/"usados") reaches
// swap-under-load with the same figures as the English line; sar under a translated "Average:"
// reaches it too; an OOM kill stated in those languages reaches oom-kill.
func TestH25bTopLocalesSwap(t *testing.T) {
	const first = "top - 14:02:11 up 3 days,  2:01,  1 user,  load average: 8,12, 7,90, 6,55\n"
	for name, text := range map[string]string{
		"en commas": first + "Tasks: 231 total,   3 running, 228 sleeping,   0 stopped,   0 zombie\n%Cpu(s): 10,0 us, 20,0 sy,  0,0 ni, 10,0 id, 60,0 wa,  0,0 hi,  0,0 si,  0,0 st\n" +
			"MiB Mem :   7821,4 total,    102,0 free,   7512,3 used,    206,1 buff/cache\nMiB Swap:   2048,0 total,     46,0 free,   2002,0 used.     98,2 avail Mem\n",
		"de": first + "Tasks: 231 total,   3 running, 228 sleeping,   0 stopped,   0 zombie\n%CPU(s): 10,0 us, 20,0 sy,  0,0 ni, 10,0 id, 60,0 wa,  0,0 hi,  0,0 si,  0,0 st\n" +
			"MiB Spch :   7821,4 total,    102,0 free,   7512,3 used,    206,1 buff/cache\nMiB Swap:   2048,0 total,     46,0 free,   2002,0 used.     98,2 avail Spch\n",
		"fr": first + "Tâches: 231 total,   3 en cours, 228 veille,   0 arrêté,   0 zombie\n%Cpu(s): 10,0 us, 20,0 sy,  0,0 ni, 10,0 id, 60,0 wa,  0,0 hi,  0,0 si,  0,0 st\n" +
			"MiB Mem :   7821,4 total,    102,0 libr,   7512,3 util,    206,1 tamp/cache\nMiB Éch :   2048,0 total,     46,0 libr,   2002,0 util.     98,2 dispo Mem\n",
		"es": first + "Tareas: 231 total,   3 ejecutar,  228 hibernar,    0 detener,    0 zombie\n" +
			"MiB Mem :   7821,4 total,    102,0 libre,   7512,3 usado,    206,1 búf/caché\nMiB Intercambio:   2048,0 total,     46,0 libre,   2002,0 usado.     98,2 dispon Mem\n",
		"pl": first + "Zadania: razem: 231, działających:   3, sen: 228, sen d:   0, zatrzymanych:   0, zombie:   0\n%CPU:   10,0 us, 20,0 sy,  0,0 ni, 10,0 id, 60,0 wa,  0,0 hi,  0,0 si,  0,0 st\n" +
			"MiB RAM :   7821,4 razem,    102,0 wolne,   7512,3 użyte,    206,1 buf/cache\nMiB Swap:   2048,0 razem,     46,0 wolne,   2002,0 użyte.     98,2 dost. RAM\n",
		"pt_BR": first + "Tarefas: 231 total,   3 em exec., 228 dormindo,   0 parado,   0 zumbi\n" +
			"MiB mem :   7821,4 total,    102,0 livre,   7512,3 usados,    206,1 buff/cache\nMiB swap:   2048,0 total,     46,0 livre,   2002,0 usados,     98,2 mem dispon.\n",
		"quoted de": "> " + strings.ReplaceAll(first+"MiB Spch :   7821,4 total,    102,0 free,   7512,3 used,    206,1 buff/cache\nMiB Swap:   2048,0 total,     46,0 free,   2002,0 used.     98,2 avail Spch\n", "\n", "\n> "),
	} {
		f := mustFire(t, run(t, "swap-under-load", parseText19b(t, text)), Warning)
		if !evidenceHas(f, "swap used (one snapshot)", "2050048 of 2097152 kB (98%)") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
	}
	// The same summary healthy: swap hardly used, memory available: no finding.
	healthy := first + "MiB Spch :   7821,4 total,   5102,0 free,   1512,3 used,   1206,1 buff/cache\nMiB Swap:   2048,0 total,   2040,0 free,      8,0 used.   6098,2 avail Spch\n"
	if res := run(t, "swap-under-load", parseText19b(t, healthy)); len(res.Findings) > 0 {
		t.Errorf("healthy de top fired: %+v", res.Findings[0])
	}
}

func TestH25bSarTranslatedAverage(t *testing.T) {
	for _, avg := range []string{"Durchschn.:", "Moyenne\u202f:", "Media:", "Média:", "Średnia:", "Gemiddeld:"} {
		text := "Linux 5.15.0-91-generic (web01) \t30.11.2026 \t_x86_64_\t(4 CPU)\n\n" +
			"14:11:01     pgpgin/s pgpgout/s   fault/s  majflt/s  pgfree/s pgscank/s pgscand/s pgsteal/s    %vmeff\n" +
			avg + "      6130,00   8890,00  12050,00    955,00  20050,00  30500,00  15500,00  9050,00     19,78\n" +
			"\n14:10:01     pswpin/s pswpout/s\n14:10:02      1520,00   2210,00\n14:10:03      1610,00   2390,00\n" + avg + "      1565,00   2300,00\n"
		tl := parseText19b(t, text)
		if len(tl.Unparsed) != 0 {
			t.Errorf("%s: unread %+v", avg, tl.Unparsed)
		}
		mustFire(t, run(t, "swap-under-load", tl), Critical)
	}
}

func TestH25bOOMKillStatedEU(t *testing.T) {
	for _, text := range []string{
		"Unser MySQL-Server stürzt ständig ab. Der OOM-Killer hat heute Nacht um 3 Uhr mysqld beendet.",
		"Der Prozess wurde vom OOM-Killer gekillt, obwohl noch 2 GB frei waren.",
		"Mon serveur MySQL plante. Le OOM killer a tué mysqld cette nuit à 3h.",
		"Le processus java a été tué par l'OOM killer du noyau.",
		"El OOM killer mató el proceso de mysqld anoche a las 3.",
		"El proceso fue matado por el OOM killer del kernel.",
		"O OOM killer matou o processo do mysqld ontem às 3h.",
		"Il processo java è stato ucciso dall'OOM killer alle 3.",
		"OOM killer zabił proces mysqld dziś w nocy o 3.",
		"Proces mysqld został zabity przez OOM killera o 3 w nocy.",
		"De OOM-killer heeft mysqld vannacht om 3 uur gekilld.",
		"mysqld werd om 3 uur door de OOM-killer gekilld.",
	} {
		f := mustFire(t, run(t, "oom-kill", parseText19b(t, text+"\n")), Warning)
		if !evidenceHas(f, "out of memory", "stated by the author") {
			t.Errorf("%q: %+v", text, f.Evidence)
		}
	}
	for _, text := range []string{
		"Wie konfiguriere ich den OOM-Killer, damit er mysqld nicht beendet?", // a question, a purpose
		"Comment éviter que le OOM killer tue mysqld ?",
		"Der OOM-Killer hat mysqld nicht beendet, es war ein Segfault.", // negated
		"Le OOM killer n'a pas tué mysqld, c'était un segfault.",
		"Wenn der OOM-Killer mysqld beendet hat, steht es im dmesg.", // a condition
		"El OOM killer mata el proceso que más memoria usa.",         // the mechanism, present
		"Der OOM-Killer beendet dann den Prozess mit dem höchsten oom_score.",
		"Hat der OOM-Killer mysqld beendet?",
		"Est-ce que le OOM killer a tué mysqld ?",
	} {
		if res := run(t, "oom-kill", parseText19b(t, text+"\n")); len(res.Findings) > 0 && res.Findings[0].Severity >= Warning {
			t.Errorf("%q fired: %+v", text, res.Findings[0])
		}
	}
}

// procps-ng 3.3.x fr.po named free's swap row "Partition d'échange:".
func TestH25bFreeOldFrenchSwapRow(t *testing.T) {
	text := "$ free -m\n              total       utilisé      libre     partagé tamp/cache   disponible\n" +
		"Mem:           7821        7512         102          45         206          98\nPartition d'échange:        2047        2001          46\n"
	f := mustFire(t, run(t, "swap-under-load", parseText19b(t, text)), Warning)
	if !evidenceHas(f, "swap used (one snapshot)", "2049024 of 2096128 kB (98%)") {
		t.Errorf("%+v", f.Evidence)
	}
	healthy := strings.Replace(text, "2001          46", "   1        2046", 1)
	healthy = strings.Replace(healthy, "7512         102          45         206          98", "1512        5102          45        1206        6098", 1)
	if res := run(t, "swap-under-load", parseText19b(t, healthy)); len(res.Findings) > 0 {
		t.Errorf("healthy fired: %+v", res.Findings[0])
	}
}

// vmstat -s's memory lines translated (procps-ng po/de.po, fr.po, es.po, pt_BR.po; pl.po's
// label-first form) give the same meminfo names as the English lines.
func TestH25bVMStatSTranslated(t *testing.T) {
	vals := []string{"8009114", "7692595", "5012344", "2012344", "104448", "1204", "205000", "2097152", "2050048", "47104"}
	for lang, words := range map[string][]string{
		"en":    {"total memory", "used memory", "active memory", "inactive memory", "free memory", "buffer memory", "swap cache", "total swap", "used swap", "free swap"},
		"de":    {"Gesamtspeicher", "benutzter Speicher", "aktiver Speicher", "inaktiver Speicher", "freier Speicher", "Pufferspeicher", "Auslagerungsspeicher-Cache", "Gesamt-Auslagerungsspeicher", "benutzter Auslagerungsspeicher", "freier Auslagerungsspeicher"},
		"fr":    {"mémoire totale", "mémoire utilisée", "mémoire active", "mémoire inactive", "mémoire libre", "mémoire tampon", "mémoire échange", "échange total", "échange utilisé", "échange libre"},
		"es":    {"memoria total", "memoria usada", "memoria activa", "memoria inactiva", "memoria libre", "memoria de búfer", "caché de intercambio", "intercambio total", "intercambio usado", "intercambio libre"},
		"pt_BR": {"de memória total", "de memória usada", "de memória ativa", "de memória inativa", "de memória livre", "de memória em buffer", "de cache de swap", "de swap total", "de swap usada", "de swap livre"},
	} {
		var b strings.Builder
		b.WriteString("$ vmstat -s\n")
		for i, w := range words {
			b.WriteString("   " + vals[i] + " K " + w + "\n")
		}
		f := mustFire(t, run(t, "swap-under-load", parseText19b(t, b.String())), Warning)
		if !evidenceHas(f, "swap used (one snapshot)", "2050048 of 2097152 kB (98%)") {
			t.Errorf("%s: %+v", lang, f.Evidence)
		}
	}
	pl := []string{"Pamięć razem", "Pamięć użyta", "Pamięć aktywna", "Pamięć nieaktywna", "Pamięć wolna", "Pamięć buforów", "Pam. podr. obsz. wymiany", "Obszar wymiany razem", "Obszar wymiany użyty", "Obszar wymiany wolny"}
	var b strings.Builder
	for i, w := range pl {
		b.WriteString(w + ":          " + vals[i] + " K\n")
	}
	f := mustFire(t, run(t, "swap-under-load", parseText19b(t, b.String())), Warning)
	if !evidenceHas(f, "swap used (one snapshot)", "2050048 of 2097152 kB (98%)") {
		t.Errorf("pl: %+v", f.Evidence)
	}
	// A sentence with the label and a size, not the table: nothing read as vmstat -s.
	tl := parseText19b(t, "Pamięć razem: 8 GB, a swap prawie pełny.\nObszar wymiany razem: 2 GB\nPamięć wolna: mało\n")
	for _, a := range tl.Artifacts {
		if a.Kind == "vmstat_s" {
			t.Errorf("sentence read as %s", a.Kind)
		}
	}
}

// Swapping stated in those languages reaches swap-under-load as "the server is swapping
// heavily" does; negated, conditional or asked, it does not.
func TestH25bSwappingStatedEU(t *testing.T) {
	for _, text := range []string{
		"Während des Backups swappt der Server massiv und die Weboberfläche reagiert nicht mehr.",
		"Der Swap ist komplett voll und alles hängt.",
		"Pendant la sauvegarde le serveur swappe énormément.",
		"Durante el backup el servidor está swapeando todo el tiempo.",
		"Durante o backup o servidor está swapando muito.",
		"Durante il backup il server va in swap e non risponde.",
		"Podczas backupu serwer swapuje bez przerwy.",
		"Tijdens de backup swapt de server enorm.",
	} {
		mustFire(t, run(t, "swap-under-load", parseText19b(t, text+"\n")), Warning)
	}
	for _, text := range []string{
		"Der Server swappt nicht, es liegt am Netzwerk.",
		"Wenn der Swap voll ist, greift der OOM-Killer ein.",
		"Est-ce que le serveur swappe ?",
		"El servidor no está swapeando.",
		"Le serveur ne swappe pas du tout.",
		"De server swapt niet.",
	} {
		if res := run(t, "swap-under-load", parseText19b(t, text+"\n")); len(res.Findings) > 0 {
			t.Errorf("%q fired: %+v", text, res.Findings[0])
		}
	}
}
