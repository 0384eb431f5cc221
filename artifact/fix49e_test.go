package artifact

import (
	"strings"
	"testing"
)

// fix49e: round 44's healthy texts that exited 3, by class: a CI runner's raw-log stamp
// ahead of a program's line (corpus 4109), kubectl/oc exec's status of a command that exited
// 137 (corpus 4108), HotSpot's -XX:+PrintFlagsFinal table (corpus 4107).

// namedNotDiagnosed: text is no longer evidence-free (exit 3), and what, the class's lines,
// made no event and no runtime OOM.
func namedNotDiagnosed(t *testing.T, text, what string) {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	if NothingRead(tl) && len(tl.Unparsed) == 0 {
		t.Error("the text is still evidence-free (exit 3)")
	}
	if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("%s read as an event: %+v %+v", what, tl.Events, tl.RuntimeOOMs)
	}
}

func TestFix49eRunnerStampedBrokerLine(t *testing.T) {
	// corpus 4109: the Actions runner's stamp, then the maven docker plugin's "ARTEMIS"
	// prefix glued to Artemis's own log4j line.
	const line = "2021-03-23T09:39:39.1885998Z ARTEMIS2021-03-23 09:39:39,187 WARN  [org.apache.activemq.artemis.core.server] AMQ222212: Disk Full! Blocking message production on address 'event/466817d8-b712-4eb6-9c23-3800cc05c830'. Clients will report blocked."
	const text = "````\n2021-03-23T09:39:07.5366581Z [INFO] -------------------------------------------------------\n" + line + "\n````\n"
	why := unreadWhyAt(text, 3)
	if !strings.HasPrefix(why, "ActiveMQ Artemis blocked producers") {
		t.Fatalf("line 3 named %q, want Artemis's blocking notice", why)
	}
	namedNotDiagnosed(t, text, "a broker's disk threshold")
	// The stamp goes, the line after it is the program's.
	for in, want := range map[string]string{
		"2021-03-23T09:39:07.5366581Z [INFO] Running org.eclipse.hono.tests.http.TelemetryHttpIT": "[INFO] Running org.eclipse.hono.tests.http.TelemetryHttpIT",
		"2026-11-28T10:31:02.1234567Z [  812.345678] tailscaled invoked oom-killer":               "[  812.345678] tailscaled invoked oom-killer",
	} {
		if got, ok := stripRunnerStamp(in); !ok || got != want {
			t.Errorf("stripRunnerStamp(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	// Not a runner's stamp: the runner's own workflow command (buildKilledLine's), docker
	// logs -t's nine digits, rsyslog's six and a zone, a stamp with no line after it.
	for _, s := range []string{
		"2026-11-28T10:31:02.1234567Z ##[error]Process completed with exit code 137.",
		"2022-10-19T22:31:02.250717044Z fatal error: runtime: out of memory",
		"2026-11-29T09:12:01.123456+00:00 web1 kernel: Out of memory: Killed process 1",
		"2026-11-28T10:31:02.1234567Z",
		"2026-11-28 10:31:02.1234567Z [INFO] x",
	} {
		if _, ok := stripRunnerStamp(s); ok {
			t.Errorf("%q: taken as a runner's stamp", s)
		}
	}
	// The runner's exit notice keeps its reason.
	const exit = "2026-11-28T10:31:02.1234567Z ##[error]Process completed with exit code 137.\n"
	if why := unreadWhyAt(exit, 1); !strings.HasPrefix(why, "GitHub Actions: the step's shell exited 137") {
		t.Errorf("runner's exit notice named %q", why)
	}
}

func TestFix49eExecExit137(t *testing.T) {
	// corpus 4108: oc exec's session into the broker's pod, its prompt, then the status.
	const text = "sh-4.2$ df .\nFilesystem 1K-blocks Used Available Use% Mounted on\n10.16.154.241:vol_4a6e 2086912 2086912 0 100% /run/artemis\n" +
		"sh-4.2$ command terminated with non-zero exit code: Error executing in Docker Container: 137\n"
	if why := unreadWhyAt(text, 4); why != execExit137Why {
		t.Fatalf("line 4 named %q, want the exec client's status 137", why)
	}
	if why := unreadWhyAt(text, 3); why != "" {
		t.Errorf("df's row named %q: another domain's output is no evidence", why)
	}
	namedNotDiagnosed(t, text, "an exit status")
	for _, s := range []string{
		"command terminated with non-zero exit code: Error executing in Docker Container: 137",
		"error: error executing remote command: command terminated with non-zero exit code: Error executing in Docker Container: 137",
		"command terminated with exit code 137",
	} {
		if !execExit137Line(s) {
			t.Errorf("%q: not read as exec's status 137", s)
		}
	}
	// counter-cases: another status (AppArmor's denied write, 1), 1370, a condition, the
	// GitLab Runner's job failure (buildKilledLine's), the status inside a sentence.
	for _, s := range []string{
		"error: error executing remote command: command terminated with non-zero exit code: Error executing in Docker Container: 1",
		"command terminated with exit code 1370",
		"If kubectl exec says command terminated with exit code 137, raise the limit",
		"ERROR: Job failed: command terminated with exit code 137",
		"command terminated with exit code 137 when the pod restarts, why?",
	} {
		if execExit137Line(s) {
			t.Errorf("%q: read as exec's status 137", s)
		}
	}
	if why, ok := shellKilledLine("ERROR: Job failed: command terminated with exit code 137"); !ok || why == execExit137Why {
		t.Errorf("GitLab's job failure named %q, want the runner's own reason", why)
	}
}

func TestFix49eHotSpotFlagsTable(t *testing.T) {
	// corpus 4107: the broker's JVM with _JAVA_OPTIONS=-XX:+PrintFlagsFinal, cut by the
	// poster's "(snip)".
	const text = "```\n(snip)\n     bool EstimateArgEscape                         = true                                {product}\n" +
		"     bool ExitOnOutOfMemoryError                    = false                               {product}\n" +
		"     bool ExplicitGCInvokesConcurrent               = false\n```\n"
	for _, no := range []int{3, 4} {
		if why := unreadWhyAt(text, no); why != hotspotFlagsWhy {
			t.Errorf("line %d named %q, want HotSpot's flag table", no, why)
		}
	}
	namedNotDiagnosed(t, text, "a flag table")
	for _, s := range []string{
		"   size_t MaxHeapSize                              = 2147483648                                {product} {ergonomic}",
		"    uintx MaxRAMPercentage                         = 25.000000                                 {product} {default}",
		"     intx ThreadStackSize                          = 1024                                   {pd product}",
		"     bool CrashOnOutOfMemoryError                  = false                                     {product} {default}",
	} {
		if !hotspotFlagLine(s) {
			t.Errorf("%q: not read as HotSpot's flag table", s)
		}
	}
	// counter-cases: sysctl.conf, a Java declaration, a flag named in a sentence, a
	// JSON-ish line, a line without the kind in braces.
	for _, s := range []string{
		"vm.overcommit_memory = 2",
		"boolean exitOnOom = false; {",
		"Set bool ExitOnOutOfMemoryError = true {product} in the options, they said",
		"\"bool\": { \"x\": 1 }",
		"     bool ExplicitGCInvokesConcurrent               = false",
		"     bool UseG1GC = true {whatever}",
	} {
		if hotspotFlagLine(s) {
			t.Errorf("%q: read as HotSpot's flag table", s)
		}
	}
}

func TestFix49eCPUShareInAParagraph(t *testing.T) {
	// corpus 4095: a blog post's paragraph pasted as one line; a rhetorical "How much?"
	// stands two sentences before the figure.
	const para = "Apparently the wiki--though getting much less usage than the main site--has been taking up the majority of CPU power. How much? Well, yesterday at least, the top three server processes were all the index.php page of the wiki, using about, oh, 88% of the CPU of the server. I was kinda shocked, to say the least."
	if !statedCPUShare(para) {
		t.Fatal("the paragraph's CPU share not read")
	}
	text := "After a long day I am fairly sure I found the issue.\n\n" + para + "\n"
	if why := unreadWhyAt(text, 3); why != whyStatedCPUShare {
		t.Errorf("line 3 named %q, want the stated CPU share", why)
	}
	namedNotDiagnosed(t, text, "a CPU share")
	// counter-cases: the figure's own sentence is a question, a condition or advice; the
	// percentage is of something else; a paragraph whose CPU word and figure sit in two
	// sentences.
	for _, s := range []string{
		"We moved the wiki last week. Is 88% of the CPU normal for index.php? It seems high.",
		"The site is slow. If the CPU goes above 90% the wiki should be turned off.",
		"The server was rebooted. You should never let the CPU sit at 100% for hours.",
		"The CPU was busy all day. About 88% of the requests went to the wiki.",
		"The CPU graph is attached. Traffic grew by 40% since May.",
	} {
		if statedCPUShare(s) {
			t.Errorf("%q: read as a stated CPU share", s)
		}
	}
}
