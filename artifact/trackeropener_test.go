package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// statedOOMWhose is the stated OOM of the text's host samples and of its samples marked as
// another machine's (model.ForeignMark), with the foreign source.
func statedOOMWhose(t *testing.T, text string) (host, foreign float64, src string) {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		v := s.Rates[model.RateStatedOOM]
		if v == 0 {
			continue
		}
		if strings.Contains(s.Source, model.ForeignMark) {
			foreign, src = max(foreign, v), s.Source
		} else {
			host = max(host, v)
		}
	}
	return host, foreign, src
}

// fix40c (corpus 3425): a tracker excerpt's title heading over replies only (no
// "· description ·" post) is the thread opener's words about the opener's host: its OOM is
// another machine's. Counter-cases: the opener's post in the excerpt, no author lines, the
// same heading without the tracker's breadcrumb, and a reply that states an OOM itself.
func TestFix40cOpenerTitleIsAnothers(t *testing.T) {
	const crumb = "nextcloud-snap/nextcloud-snap · issue #1836 · closed · Shell\n# MySQL uses too much memory, causing OOM\n\n"
	const reply = "pachulo · comment · 2023-10-28\nWell, I'm using this on a Raspberry 3 and I don't experience any problems.\n"
	for _, c := range []struct {
		name          string
		text          string
		host, foreign float64
	}{
		{"replies only", crumb + reply, 0, 1},
		{"replies only, labels line", "nextcloud-snap/nextcloud-snap · issue #1836 · closed · Shell\nlabels: bug\n# MySQL uses too much memory, causing OOM\n\n" + reply, 0, 1},
		// counter-cases: the title stays the author's
		{"opener's post kept", crumb + "daveriedstra · description · 2023-10-20\nMySQL gets killed every night.\n\n" + reply, 1, 0},
		{"no author lines", crumb + "MySQL gets restarted every night on my box.\n", 1, 0},
		{"no breadcrumb", "# MySQL uses too much memory, causing OOM\n\n" + reply, 1, 0},
		{"a reply states its own OOM", crumb + "pachulo · comment · 2023-10-28\nMySQL got OOM killed on my server too.\n", 1, 1},
	} {
		host, foreign, src := statedOOMWhose(t, c.text)
		if host != c.host || foreign != c.foreign {
			t.Errorf("%s: stated OOM host %v foreign %v, want %v %v", c.name, host, foreign, c.host, c.foreign)
		}
		if foreign > 0 && !strings.Contains(src, "the thread's title") {
			t.Errorf("%s: foreign source %q does not say it is the thread's title", c.name, src)
		}
	}
}

func TestFix40cTrackerPostKind(t *testing.T) {
	for _, c := range []struct {
		line string
		kind string
	}{
		{"pachulo · comment · 2023-10-28", "comment"},
		{"AdityaVallabh · description · 2025-04-05", "description"},
		{"someone · review thread · 2021-01-02", "review thread"},
		// not author lines: a breadcrumb, a sentence with middle dots, no date
		{"nextcloud-snap/nextcloud-snap · issue #1836 · closed · Shell", ""},
		{"Jane Doe · comment · 2023-10-28", ""},
		{"pachulo · comment · yesterday", ""},
		{"pachulo · wrote · 2023-10-28", ""},
	} {
		if k, _ := trackerPostKind(c.line); k != c.kind {
			t.Errorf("%q: kind %q, want %q", c.line, k, c.kind)
		}
	}
}

// fix40c (corpus 3395): OOM as the verb states an out-of-memory (host's, stated, no
// report). Counter-cases: the bare verb in an expectation, the plural noun, a goal
// ("to avoid OOMing"), a negation, a condition, and a program's own out-of-memory.
func TestFix40cStatedOOMVerb(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"`kube-teleport-agent` OOMs frequently after a few days of usage.\n", 1},
		{"`omega-0005` OOMed on Fri Mar  3 01:36:04 2017 UTC:\n", 1},
		{"Then it OOM'd again last night.\n", 1},
		{"cloud-hypervisor is OOMing under that load.\n", 1},
		{"Our registry keeps OOMing every few hours.\n", 1},
		// counter-cases
		{"`kube-teleport-agent` should have roughly constant memory usage and should not OOM frequently.\n", 0},
		{"We want fewer OOMs after the upgrade.\n", 0},
		{"The default systemd configuration should set OOMScoreAdjust=-1000 to avoid OOMing the Nomad process.\n", 0},
		{"The pod never OOMed.\n", 0},
		{"If the limit is too low the pod OOMs after a while.\n", 0},
		{"Does the agent get OOMed?\n", 0},
		{"fatal error: runtime: out of memory\n\nlnd running on 32-bit system OOMs on start up\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
}

// fix40c (corpus 3408): a job runner's "exited with code: 137" (colon form), also in
// inline code with the job's output after it, is a SIGKILL named unread like compose's
// "exited with code 137". Counter-cases: another code, advice, a digit after 137.
func TestFix40cExitedWithCodeColon137(t *testing.T) {
	for _, text := range []string{
		"Script exited with code: 137\n",
		"For example, the last error code was\n\n` Error 137: Script exited with code: 137: time=\"2021-09-01T19:00:05Z\" level=info msg=\"indexing originals in /photoprism/originals\"`\n",
		"python script exited with code: 137, restarting\n",
	} {
		namedNoOOM(t, text, "128+9")
	}
	for _, text := range []string{
		"Script exited with code: 1\n",
		"Script exited with code: 1370\n",
		"If you see Script exited with code: 137, raise the VM's memory.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if f15Unread(tl, "128+9") {
			t.Errorf("%q: named as a SIGKILL: %+v", text, tl.Unparsed)
		}
	}
}
