package artifact

import (
	"strings"
	"testing"
)

// fix42b: round 37's first-run misses (corpus 3531, 3553, 3600: oom-kill false alarms from
// prose; 3534: exit 3 on a fork's ENOMEM), by class.

// A runtime's own out-of-memory named by its message's words beside a crash or a kill word
// (V8's "JavaScript heap out of memory", .NET's "out of memory exception") is no OOM of the
// kernel's; the kernel's words beside it still are.
func TestFix42bRuntimeOOMNounNotKernel(t *testing.T) {
	for _, text := range []string{
		// corpus 3531's title (dockware#270) as the tracker's excerpt prints it
		"dockware/dockware · issue #270 · open · PHP\n# [SW 6.7.0.0] build-administration.sh | process killed or JavaScript heap out of memory\n\ncybercom684 · description · 2025-06-28\nThe build stops.\n",
		// corpus 3600's statement (Sonarr#4702)
		"### Current Behavior\n\nSonarr crashes with an out of memory exception. The system is not out of memory.\n",
		"The webpack build crashed with heap out of memory after 20 minutes.\n",
		"Our service keeps crashing with out-of-memory exceptions since the update.\n",
	} {
		if hostStatesOOM(text) {
			t.Errorf("runtime's own out-of-memory read as the host's OOM: %q", text)
		}
	}
	for _, text := range []string{
		"Sonarr crashes with out of memory every night on my 1 GB box.\n",                               // no runtime's noun
		"The build process was killed by the OOM killer, not by a JavaScript heap out of memory.\n",     // the killer named
		"node crashed: OOM, the kernel killed it; it was no JavaScript heap out of memory this time.\n", // an OOM of its own
	} {
		if !hostStatesOOM(text) {
			t.Errorf("a kernel OOM no longer read: %q", text)
		}
	}
	if s := "process killed or JavaScript heap out of memory"; !runtimeOOMNounOnly(s, 8, len(s)) {
		t.Errorf("title's match not the runtime's")
	}
	if s := "process killed by the OOM killer after heap out of memory"; runtimeOOMNounOnly(s, 8, len(s)) {
		t.Errorf("OOM killer taken for a runtime's noun")
	}
}

// An OOM kill feared or expected ("potential OOM kills ... waiting to happen", "the risk of
// an OOM kill") is no event; the same words told as what happened still are.
func TestFix42bOOMFearedNotHad(t *testing.T) {
	for _, text := range []string{
		// corpus 3553's Impact paragraph (a Plausible/ClickHouse postmortem)
		"Impact\n\nThe VPS hosts other small projects. With ClickHouse consuming over half the available RAM and pinning both CPU cores, everything else on the machine suffered. Plausible was sluggish, and potential OOM kills cascading across services waiting to happen.\n",
		"At this rate there is a real risk of an OOM crash on the database host.\n",
		"Memory climbs every day; an OOM crash is only a matter of time.\n",
	} {
		if hostStatesOOM(text) {
			t.Errorf("feared OOM read as one that happened: %q", text)
		}
	}
	for _, text := range []string{
		"Plausible was sluggish, and OOM kills cascaded across services on Friday.\n",
		"The database crashed with OOM twice last week; the potential cause is the merges.\n",
	} {
		if !hostStatesOOM(text) {
			t.Errorf("an OOM that happened no longer read: %q", text)
		}
	}
}

// A program's record that fork() failed with ENOMEM (PHP proc_open's "fork failed - %s",
// other C programs' "fork failed: %s") is named unread with what it proves: a commit
// refusal, no kill; a sentence or a hint naming it is not.
func TestFix42bForkENOMEMRecord(t *testing.T) {
	// corpus 3534 (davidalger/devenv#72): composer's exception in a fenced bash session
	text := "```bash\n$ m2setup.sh -d -v --hostname=example.dev\n" +
		"The following exception is caused by a lack of memory and not having swap configured\n" +
		"Check https://getcomposer.org/doc/articles/troubleshooting.md#proc-open-fork-failed-errors for details\n" +
		"PHP Fatal error:  Uncaught exception 'ErrorException' with message 'proc_open(): fork failed - Cannot allocate memory' in phar:///usr/local/bin/composer/vendor/symfony/console/Application.php:940\n```\n"
	if w := fix40bWhys(text); w[forkENOMEMWhy] != [2]int{5, 5} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	if !strings.Contains(forkENOMEMWhy, "no kill by the kernel's OOM killer") || !strings.Contains(forkENOMEMWhy, "overcommit-exposed would need") {
		t.Errorf("why does not say what the line proves: %s", forkENOMEMWhy)
	}
	if hostStatesOOM(text) {
		t.Errorf("fork's ENOMEM read as an OOM kill")
	}
	for _, s := range []string{
		"PHP Warning:  proc_open(): fork failed - Cannot allocate memory in /var/www/cron.php on line 12",
		"snort: fork failed - Cannot allocate memory",
		"mydaemon[812]: fork failed: Cannot allocate memory", /* a syslog record's message and tag */
		"fork failed: Nicht genügend Hauptspeicher verfügbar",
	} {
		if why, ok := errnoLogLine(s); !ok || why != forkENOMEMWhy {
			t.Errorf("%q: %v %s", s, ok, why)
		}
	}
	for _, s := range []string{
		"If you see fork failed - Cannot allocate memory, add swap to the VM",                     // advice, a sentence
		"when composer says proc_open(): fork failed - Cannot allocate memory on a box with 1 GB", // a condition, words after
		"proc_open(): fork failed - Resource temporarily unavailable",                             // EAGAIN: a task limit, not memory
		"Check https://getcomposer.org/doc/articles/troubleshooting.md#proc-open-fork-failed-errors for details",
	} {
		if why, ok := forkENOMEMRecord(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}
