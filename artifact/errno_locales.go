package artifact

import "strings"

// strerror's texts under a translated locale (h25b): a program that prints strerror(errno)
// or %m after setlocale shows glibc's translation (po/*.po of glibc, the msgstr of "Cannot
// allocate memory", "No buffer space available", "Too many open files", "Too many open
// files in system"): "sendto failed: Kein Hauptspeicher für den Puffer verfügbar",
// "-bash: fork: Nicht genügend Hauptspeicher verfügbar". Each is read as the English text
// (errnoReasons' meaning). "No se puede asignar memoria" is older glibc's es.po; "Impossible
// d'allouer de la mémoire" and "Kein Pufferspeicher verfügbar" are the same errors in other
// programs' own French and German messages.
var errnoTranslations = map[string]string{
	// ENOMEM
	"Nicht genügend Hauptspeicher verfügbar": "Cannot allocate memory",
	"Ne peut allouer de la mémoire":          "Cannot allocate memory",
	"Impossible d'allouer de la mémoire":     "Cannot allocate memory",
	"No se pudo asignar memoria":             "Cannot allocate memory",
	"No se puede asignar memoria":            "Cannot allocate memory",
	"Não foi possível alocar memória":        "Cannot allocate memory",
	"Impossibile allocare memoria":           "Cannot allocate memory",
	"Nie można przydzielić pamięci":          "Cannot allocate memory",
	"Onvoldoende geheugen beschikbaar":       "Cannot allocate memory",
	// ENOBUFS
	"Kein Hauptspeicher für den Puffer verfügbar": "No buffer space available",
	"Kein Pufferspeicher verfügbar":               "No buffer space available",
	"Aucun espace tampon disponible":              "No buffer space available",
	"No queda espacio para memoria intermedia":    "No buffer space available",
	"Não há espaço de buffer disponível":          "No buffer space available",
	"Nessuno spazio di buffer disponibile":        "No buffer space available",
	"Brak miejsca w buforze":                      "No buffer space available",
	"Geen bufferruimte meer beschikbaar":          "No buffer space available",
	// EMFILE
	"Zu viele offene Dateien":      "Too many open files",
	"Trop de fichiers ouverts":     "Too many open files",
	"Demasiados ficheros abiertos": "Too many open files",
	"Muitos arquivos abertos":      "Too many open files",
	"Troppi file aperti":           "Too many open files",
	"Za dużo otwartych plików":     "Too many open files",
	"Te veel open bestanden":       "Too many open files",
	// ENFILE
	"Zu viele offene Dateien im System":          "Too many open files in system",
	"Trop de fichiers ouverts dans le système":   "Too many open files in system",
	"Demasiados ficheros abiertos en el sistema": "Too many open files in system",
	"Muitos arquivos abertos no sistema":         "Too many open files in system",
	"Troppi file aperti nel sistema":             "Too many open files in system",
	"Za dużo otwartych plików w systemie":        "Too many open files in system",
	"Te veel open bestanden in systeem":          "Too many open files in system",
}

// errnoTranslatedTail: the English errno text of the translation that ends t after ": "
// (strerror's place: "accept() failed: Zu viele offene Dateien", nginx's "(24: Troppi file
// aperti)"), "" for none. One LastIndex and one map lookup.
func errnoTranslatedTail(t string) string {
	k := strings.LastIndex(t, ": ")
	if k < 0 {
		return ""
	}
	return errnoTranslations[strings.TrimRight(t[k+2:], " .)\"'")]
}

// errnoWhyOf: errnoReasons' meaning of the English text en.
func errnoWhyOf(en string) (string, bool) {
	for _, e := range errnoReasons {
		if e.text == en {
			return e.why, true
		}
	}
	return "", false
}

// shellForkENOMEM: bash's report that it could not fork (jobs.c make_child: sys_error("fork"),
// "bash: fork: Cannot allocate memory", "-bash: fork: Nicht genügend Hauptspeicher
// verfügbar", a script's "./run.sh: fork: ..."): fork's ENOMEM. The line holds no digit, so
// errnoLogLine's record test does not take it.
const shellForkENOMEMWhy = "a shell could not fork (bash jobs.c make_child: \"bash: fork: Cannot allocate memory\", strerror(ENOMEM), in English or the locale's translation): the kernel refused to commit a copy of the shell's memory for the child (vm.overcommit_memory 2 and CommitLimit reached, or mode 0's heuristic with RAM and swap short) or a memory cgroup refused it; no kill by the kernel's OOM killer and no page allocation failure; overcommit-exposed would need `grep -E 'Committed_AS|CommitLimit' /proc/meminfo; sysctl vm.overcommit_memory`; headroom has no reader for this log"

func shellForkENOMEM(t string) bool {
	s := strings.TrimSpace(t)
	k := strings.Index(s, "fork: ")
	if k < 0 || k > 80 {
		return false
	}
	// Before it only the shell's or script's name and bash's "line N: " ("-bash: ",
	// "./run.sh: line 3: ", "./run.sh: Zeile 3: "): a sentence that quotes it has more words.
	if head := s[:k]; k > 0 && (!strings.HasSuffix(head, ": ") || strings.Count(head, " ") > 3) {
		return false
	}
	rest := strings.TrimRight(s[k+len("fork: "):], " .")
	return rest == "Cannot allocate memory" || errnoTranslations[rest] == "Cannot allocate memory"
}
