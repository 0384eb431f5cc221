package artifact

import "testing"

// fix30b (corpus 2581, 2622, 2630): a kill for lack of memory in French or German words, the
// Go runtime's own out-of-memory quoted in a tracker's title, and an OOM with no victim
// stated in words.

func TestFix30bKilledNoMemoryEU(t *testing.T) {
	for _, text := range []string{
		// corpus 2581's sentence (the author's "se fait tué" for "se fait tuer")
		"Peut être à mettre en regard avec le fait que récemment en production le backend se fait tué car le système n'a plus de mémoire :\n",
		"Le processus a été tué parce que le serveur manquait de mémoire.\n",
		"Der Prozess wurde beendet, weil der Arbeitsspeicher voll war.\n",
		"Gestern wurde mysqld gekillt, weil nicht genug Speicher da war.\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: a kill for lack of memory not read", text)
		}
	}
	// counter-cases: what an exit code usually means, a condition, a negation, a question,
	// another cause, a sentence that only names the words.
	for _, text := range []string{
		"Apparemment le code d'erreur 137 indique généralement que le processus a été tué car le serveur n'a pas assez de mémoire.\n",
		"Si le processus est tué car le système n'a plus de mémoire, il faut augmenter la RAM.\n",
		"Le processus n'a pas été tué car le serveur avait assez de mémoire.\n",
		"Le backend a-t-il été tué car le système n'a plus de mémoire ?\n",
		"Le backend a été tué car le déploiement l'a redémarré.\n",
		"Exit 137 bedeutet, dass der Prozess beendet wurde, weil der Speicher voll war.\n",
		"Wenn der Prozess gekillt wird, weil der Arbeitsspeicher voll ist, steht es im Log.\n",
		"La mémoire du serveur est de 12 Go.\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: read as a stated kill", text)
		}
	}
}

func TestFix30bRuntimeOOMTitle(t *testing.T) {
	const crumb = "hashicorp/consul · issue #5327 · closed · Go\n"
	const body = "\nhaggag · description · 2019-02-09\nIt was working fine, then suddenly it started to crash with out of memory errors as listed below.\n"
	for _, title := range []string{
		"# Fatal error runtime: out of memory when Starting Consul agent\n",
		"# fatal error: runtime: out of memory on start\n",
	} {
		if tl := ParseString(crumb+title+body, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: the Go runtime's own out-of-memory read as the host's", title)
		}
		// the same text wrapped in a code fence (a form: the title is no title there)
		if tl := ParseString("```\n"+crumb+title+body+"```\n", "t", Options{}); statedOOM(tl) {
			t.Errorf("%q fenced: the Go runtime's own out-of-memory read as the host's", title)
		}
	}
	// counter-cases: a title without the runtime's quote keeps the body's statement; a kill
	// word in the body still states a kill.
	for _, text := range []string{
		crumb + "# Consul crashes with out of memory on start\n" + body,
		crumb + "# Container runtime out of memory when starting agent\n" + body,
		crumb + "# Fatal error runtime: out of memory when Starting Consul agent\n\nhaggag · description · 2019-02-09\nThen the kernel's OOM killer killed consul twice last night.\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: a stated out-of-memory lost", text)
		}
	}
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"Fatal error runtime: out of memory when Starting Consul agent", true},
		{"FATAL ERROR: RUNTIME: OUT OF MEMORY", true},
		{"runtime: out of memory: cannot allocate", false}, // no "fatal": appOOMLine's own form
		{"Fatal: out of memory at runtime", false},
		{"fatal error in container runtime out of memory", false},
	} {
		if got := runtimeOOMTitle(c.t); got != c.want {
			t.Errorf("runtimeOOMTitle(%q) = %v, want %v", c.t, got, c.want)
		}
	}
}

func TestFix30bOOMNoVictim(t *testing.T) {
	for _, text := range []string{
		// corpus 2630's "Actual Result"
		"the task is not killed, as the OOM killer is unable to kill any process due to the `OOMScoreAdjust`.\n",
		"Since the upgrade the oom killer could not find any process to kill and the cgroup hangs.\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: an OOM with no victim not read", text)
		}
	}
	// counter-cases: a condition, a rule about which tasks it spares, a question, a
	// negation of the failure, advice.
	for _, text := range []string{
		"If the OOM killer is unable to kill any process, the kernel panics.\n",
		"The OOM killer cannot kill any process with oom_score_adj -1000.\n",
		"Is the OOM killer unable to kill any process here?\n",
		"It is not true that the OOM killer was unable to kill any process.\n",
		"You should make sure the OOM killer can't kill any process of the database.\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: read as a stated OOM", text)
		}
	}
}
