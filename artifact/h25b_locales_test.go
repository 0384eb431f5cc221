package artifact

import (
	"strings"
	"testing"
)

// Forms of a European locale (h25b): top's decimal commas and translated labels, bash's
// translated job notices and strsignal(SIGKILL), glibc's translated strerror texts, sar's
// translated "Average:".
func TestH25bTopEnglish(t *testing.T) {
	for in, want := range map[string]string{
		"MiB Spch :   7821,4 total,    102,0 free,   7512,3 used,    206,1 buff/cache":                 "MiB Mem : 7821.4 total, 102.0 free, 7512.3 used, 206.1 buff/cache",
		"MiB Éch :   2048,0 total,     46,0 libr,   2002,0 util.     98,2 dispo Mem":                   "MiB Swap: 2048.0 total, 46.0 free, 2002.0 used. 98.2 avail Mem",
		"MiB swap:   2048,0 total,     46,0 livre,   2002,0 usados,     98,2 mem dispon.":              "MiB Swap: 2048.0 total, 46.0 free, 2002.0 used, 98.2 avail Mem",
		"Zadania: razem: 231, działających:   3, sen: 228, sen d:   0, zatrzymanych:   0, zombie:   0": "Tasks: 231 total, 3 running, 228 sleeping, 0 stopped, 0 zombie",
		"%CPU(s): 10,0 us, 20,0 sy":      "%Cpu(s): 10.0 us, 20.0 sy",
		"load average: 8,12, 7,90, 6,55": "load average: 8.12, 7.90, 6.55",
		// Counter-cases that stay as they are: top's English lines, two figures run together
		// after a point, a label top does not print, a sentence after the label.
		"MiB Mem :   7821.4 total,    102.0 free,   7512.3 used,    206.1 buff/cache": "MiB Mem :   7821.4 total,    102.0 free,   7512.3 used,    206.1 buff/cache",
		"load average: 0.15,0.20,0.18":                 "load average: 0.15,0.20,0.18",
		"MiB Disk :   7821 total, 102 free, 7512 used": "MiB Disk :   7821 total, 102 free, 7512 used",
		"Tareas: hoy revisé el servidor y nada más":    "Tareas: hoy revisé el servidor y nada más",
	} {
		if got := topEnglish(in); got != want {
			t.Errorf("topEnglish(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestH25bShellKilledTranslated(t *testing.T) {
	for _, line := range []string{
		"./run.sh: line 12:  4242 Killed                  java -Xmx6g -jar app.jar",
		"./run.sh: Zeile 12:  4242 Getötet                 java -Xmx6g -jar app.jar",
		"./run.sh: Zeile 12:  4242 Abgebrochen (Killed)    java -Xmx6g -jar app.jar",
		"./run.sh : ligne 12 :  4242 Processus arrêté        java -Xmx6g -jar app.jar",
		"./run.sh : ligne 12 :  4242 Tué                     java -Xmx6g -jar app.jar",
		"./run.sh: línea 12:  4242 Terminado (killed)      java -Xmx6g -jar app.jar",
		"./run.sh, linha 12:  4242 Morto                   java -Xmx6g -jar app.jar",
		"./run.sh: riga 12:  4242 Ucciso                  java -Xmx6g -jar app.jar",
		"./run.sh: linia 12:  4242 Unicestwiony            java -Xmx6g -jar app.jar",
		"./run.sh: regel 12:  4242 Geëlimineerd            java -Xmx6g -jar app.jar",
	} {
		if why, ok := shellKilledLine(line); !ok || why != shellKilledWhy {
			t.Errorf("%q: %v %q", line, ok, why)
		}
	}
	for _, line := range []string{"Getötet", "  Processus arrêté", "Terminado (killed)", "Unicestwiony", "[1]+  Getötet                 python3 train.py", "[2]-  Salida 137              sh run.sh"} {
		if _, ok := processEndLine(line); !ok {
			t.Errorf("%q not read", line)
		}
	}
	// SIGABRT's and SIGTERM's texts, and a sentence with the word, are none.
	for _, line := range []string{
		"./build.sh: Zeile 3:  4242 Abgebrochen             ./worker",
		"./build.sh: línea 3:  4242 Terminado               ./worker",
		"Abgebrochen", "Terminado", "Er wurde einfach getötet.", "Getötet wurde nichts",
		"[1]+  Beendet                 python3 train.py",
	} {
		if why, ok := shellKilledLine(line); ok {
			t.Errorf("%q read: %q", line, why)
		}
	}
}

func TestH25bErrnoTranslated(t *testing.T) {
	for line, want := range map[string]string{
		"2026/11/30 14:02:11 [crit] 1234#0: accept4() failed (24: Zu viele offene Dateien)":        "EMFILE",
		"2026/11/30 14:02:11 [crit] 1234#0: accept4() failed (23: Troppi file aperti nel sistema)": "ENFILE",
		"2026-11-30 14:02:11 ERROR sendto failed: Kein Hauptspeicher für den Puffer verfügbar":     "ENOBUFS",
		"2026-11-30 14:02:11 ERROR sendto failed: Aucun espace tampon disponible":                  "ENOBUFS",
		"2026-11-30 14:02:11 ERROR mmap: Ne peut allouer de la mémoire":                            "ENOMEM",
		"2026-11-30 14:02:11 ERROR mmap: No se pudo asignar memoria":                               "ENOMEM",
		"2026-11-30 14:02:11 ERROR mmap: Nie można przydzielić pamięci":                            "ENOMEM",
		"2026-11-30 14:02:11 ERROR socket: Geen bufferruimte meer beschikbaar":                     "ENOBUFS",
		"2026-11-30 14:02:11 ERROR open: Muitos arquivos abertos no sistema":                       "ENFILE",
	} {
		why, ok := errnoLogLine(line)
		if !ok || !strings.Contains(why, want) {
			t.Errorf("%q: %v %q", line, ok, why)
		}
	}
	for _, line := range []string{
		"-bash: fork: Cannot allocate memory",
		"-bash: fork: Nicht genügend Hauptspeicher verfügbar",
		"bash: fork: Ne peut allouer de la mémoire",
		"-bash: fork: No se puede asignar memoria",
		"-bash: fork: Não foi possível alocar memória",
		"-bash: fork: Impossibile allocare memoria",
		"-bash: fork: Onvoldoende geheugen beschikbaar",
	} {
		if why, ok := errnoLogLine(line); !ok || why != shellForkENOMEMWhy {
			t.Errorf("%q: %v %q", line, ok, why)
		}
	}
	// Not strerror's place, a sentence quoting it, an unknown text: none.
	for _, line := range []string{
		"Wenn 12 mal \"Zu viele offene Dateien\" kommt, ulimit erhöhen.",
		"Was bedeutet die Meldung bash: fork: Nicht genügend Hauptspeicher verfügbar?",
		"-bash: fork: Vorübergehend nicht verfügbar",
		"2026-11-30 14:02:11 INFO open: 12 Dateien offen",
	} {
		if why, ok := errnoLogLine(line); ok {
			t.Errorf("%q read: %q", line, why)
		}
	}
}

func TestH25bSarAverageStamp(t *testing.T) {
	for _, avg := range []string{"Durchschn.:", "Moyenne :", "Moyenne\u00a0:", "Moyenne\u202f:", "Media:", "Média:", "Średnia:", "Gemiddeld:"} {
		if stamp, rest := sysstatStamp(avg + "      1536,67   2235,00"); stamp != avg || strings.TrimSpace(rest) != "1536,67   2235,00" {
			t.Errorf("%q: %q %q", avg, stamp, rest)
		}
	}
	if stamp, _ := sysstatStamp("Mediana: 12 34"); stamp != "" {
		t.Errorf("Mediana: read as a stamp %q", stamp)
	}
}
