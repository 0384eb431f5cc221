package artifact

import (
	"testing"

	"headroom/model"
)

// fix41a: the stated classes, each with counter-cases of the same shape.
//   - corpus 3444: Kubernetes' reason OOMKilled told as the cause or manner of a container's
//     restart or exit ("restart every now and then due to an OOMKilled error", "exiting w/
//     the same OOMKilled error (error 137)"): the container's OOM kill, stated. A question, a
//     condition, a negation and a doc's list of reasons state nothing.
//   - corpus 3463: "got OOM" as the victim's predicate at a clause's end ("the memory cost
//     went to 12GB and got OOM"). A condition, a question, a framework's own message ("got
//     OOM when allocating tensor") and "got OOM errors" are not read.
//   - corpora 3464, 3465: swap taken into use once RAM ran out, in the past ("The machine
//     went out of RAM and began using swapspace"), and memory filled told in the passive with
//     an amount of swap counted in ("the entire memory is filled by that from zebra,
//     including a fair amount of swap as well"). The mechanism in the present, advice, a use
//     without an amount and a question are not read.
func TestFix41aStatedClasses(t *testing.T) {
	oom, swap := model.RateStatedOOM, model.RateStatedSwapping
	for _, c := range []struct {
		text, key string
		want      float64
	}{
		{"I've noticed the linkerd destination and proxy injector control plane components restart every now and then due to an OOMKilled error.\n", oom, 1},
		{"I notice that all three replicas of these components restart at about the same time - exiting w/ the same OOMKilled error (error 137).\n", oom, 1},
		{"The proxy container keeps failing with OOMKilled since the upgrade.\n", oom, 1},
		{"The pod shows OOMKilled (error 137) after every rollout.\n", oom, 1},
		{"Does the pod restart due to an OOMKilled error?\n", oom, 0},
		{"If the container restarts due to OOMKilled, raise its memory limit.\n", oom, 0},
		{"The pods were not restarted due to OOMKilled; the liveness probe failed.\n", oom, 0},
		{"Possible reasons: Completed, Error, OOMKilled, ContainerCannotRun.\n", oom, 0},
		{"The pod restarts with exit code 1 after the upgrade.\n", oom, 0},

		{"In the worst case, the memory cost went to 12GB and got OOM.\n", oom, 1},
		{"Last night gobgpd got OOM again, at 11GB resident.\n", oom, 1},
		{"The collector gets OOM every few days.\n", oom, 1},
		{"If the daemon got OOM, systemd would restart it.\n", oom, 0},
		{"Has anyone seen gobgpd gets OOM?\n", oom, 0},
		{"I got OOM when allocating tensor with shape [64,3,224,224].\n", oom, 0},
		{"We got OOM errors from the JVM in the application log.\n", oom, 0},
		{"To avoid it getting OOM, set GOMEMLIMIT.\n", oom, 0},

		{"The machine went out of RAM and began using swapspace (GoBGP got 3,5 GB RAM of 4 GB built in).\n", swap, 1},
		{"The box ran out of memory and then started swapping.\n", swap, 1},
		{"RAM was full and started to use the swap.\n", swap, 1},
		{"I'm exporting one full table to a virtual machine with 8GB of memory and the entire memory is filled by that from zebra, including a fair amount of swap as well.\n", swap, 1},
		{"The memory was completely eaten up by bird, plus most of the swap.\n", swap, 1},
		{"When Linux runs out of RAM and starts using swap, everything slows down.\n", swap, 0},
		{"If it went out of RAM and began using swap, add memory.\n", swap, 0},
		{"The memory is used by zebra, plus some swap for idle pages.\n", swap, 0},
		{"When the memory is filled, including all of the swap, the OOM killer runs.\n", swap, 0},
		{"The machine went out of RAM and began using the disk cache less.\n", swap, 0},
	} {
		if got := statedRate(t, c.text, c.key); got != c.want {
			t.Errorf("%q: %s %v, want %v", c.text, c.key, got, c.want)
		}
	}
}

// fix41a (corpus 3464): a size written with a decimal comma ("3,5 GB RAM") is not read from
// its last digits as the host's memory (it was 5 GiB); the machine's "RAM of 4 GB" still is.
func TestFix41aDecimalCommaMemory(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
	}{
		{"GoBGP got 3,5 GB RAM of 4 GB built in.\n", 4 << 20},
		{"The server has 2,5 GB RAM.\n", 0},
		{"The server has 16 GB RAM.\n", 16 << 20},
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.MemTotalKB != c.want {
			t.Errorf("%q: MemTotal %d kB, want %d", c.text, tl.Host.MemTotalKB, c.want)
		}
	}
}

// fix41a (corpora 3458, 3479): two prose forms of a program dying of memory, named unread
// (issue 29: evidence headroom cannot judge): the kill told as the failure and given
// out-of-memory as its cause, and a program that used up all the memory and crashed.
// Conditions, questions and advice are not evidence.
func TestFix41aStatedMemoryDeathUnread(t *testing.T) {
	for _, c := range []struct {
		text string
		is   func(string) bool
		want bool
	}{
		{"The test will fail with the error message `signal killed`, which is caused by out-of-memory.", statedOOMCause, true},
		{"The runner was killed, caused by out of memory on the CI box.", statedOOMCause, true},
		{"If the test is killed because of OOM, raise the limit.", statedOOMCause, false},
		{"Was it killed because of out-of-memory?", statedOOMCause, false},
		{"after spending some minutes, the process starts to consume all the memory of the server and crashes...", statedUsedUpCrash, true},
		{"bird ate all the RAM and then got killed.", statedUsedUpCrash, true},
		{"If it consumes all the memory and crashes, restart it.", statedUsedUpCrash, false},
		{"Does it consume all the memory and crash on your side?", statedUsedUpCrash, false},
		{"The cache consumes all the memory and the server stays up.", statedUsedUpCrash, false},
	} {
		if got := c.is(c.text); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
	// In a text with nothing else, the line is listed unread with its reason.
	tl := ParseString("Analyzing the behaviour with the debug option, after spending some minutes, the process starts to consume all the memory of the server and crashes...\n", "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != whyStatedUsedUpCrash {
		t.Errorf("unread %+v, want the line with %q", tl.Unparsed, whyStatedUsedUpCrash)
	}
}

// fix41a (corpus 3495): kubectl top's rows under its command line when grep (or
// --no-headers) dropped the header are read as the header's rows are. A command in prose, a
// command whose next line is no row, and another tool's rows under the command are not.
func TestFix41aKubectlTopFiltered(t *testing.T) {
	text := "```\nkshitij.kumar@M6109XG6TY Downloads % kubectl top pods -A | grep multus\n" +
		"kube-system                         multus-5hq4j                                                      0m           10Mi            \n" +
		"kube-system                         multus-7qxbk                                                      0m           10Mi            \n" +
		"kube-system                         mul\n```\n"
	tl := ParseString(text, "p", Options{})
	arts := artifactsOf(tl, KindContainerMem)
	if len(arts) != 1 {
		t.Fatalf("container tables %d, want 1", len(arts))
	}
	tb, ok := arts[0].Data.(ContainerMemTable)
	if !ok || tb.Tool != "kubectl top" || len(tb.Rows) != 2 || tb.Rows[0].Name != "kube-system/multus-5hq4j" || tb.Rows[1].UsageBytes != 10<<20 {
		t.Errorf("table %+v", arts[0].Data)
	}
	if arts[0].FirstLine != 2 || arts[0].LastLine != 4 {
		t.Errorf("lines %d-%d, want 2-4", arts[0].FirstLine, arts[0].LastLine)
	}
	for _, c := range []string{
		"I ran kubectl top pods | grep multus and every pod showed 10Mi.\nkube-system   multus-5hq4j   0m   10Mi\n",
		"$ kubectl top pods -A | grep multus\nno pods found\n",
		"$ kubectl top pods -A\n",
		"$ docker stats --no-stream | grep multus\nkube-system   multus-5hq4j   0m   10Mi\n",
	} {
		if arts := artifactsOf(ParseString(c, "p", Options{}), KindContainerMem); len(arts) != 0 {
			t.Errorf("%q: read as kubectl top rows %+v", c, arts[0].Data)
		}
	}
}
