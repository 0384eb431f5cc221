package artifact

import (
	"testing"

	"headroom/model"
)

// fix24c (round 19, g91/g93): a syslog receiver's label before a kern datagram (corpus
// 2150), docker inspect's State of a container that ended without an OOM kill (2107), and a
// title naming an OOM under a tracker's breadcrumb over a headerless Mem-Info dump (2150).

func TestFix24cReceiverLabel(t *testing.T) {
	// corpus 2150's line, and the label's other spellings.
	for _, raw := range []string{
		"Received message  <4>Jun  8 11:15:43 LEDE kernel: [  379.240872] lowmem_reserve[]: 0 0 ",
		"Received: <4>Jun  8 11:15:43 LEDE kernel: [  379.240872] lowmem_reserve[]: 0 0 ",
		"message <6>Jun 18 01:02:03 router kernel: [  379.240872] lowmem_reserve[]: 0 0 ",
	} {
		l, _, _ := parseLine(1, raw)
		if !l.Kernel || l.Text != "lowmem_reserve[]: 0 0 " || l.UptimeUsec != 379240872 {
			t.Errorf("%q read as %+v", raw, l)
		}
	}
	// Counter-cases: another program's datagram, a facility other than kern, a label of
	// three words or more (a sentence), a '<' that opens no priority, a date that is none.
	for _, raw := range []string{
		"Received message  <30>Jun  8 11:15:43 LEDE dnsmasq[812]: query[A] example.org",
		"Received message  <4>Jun  8 11:15:43 LEDE dnsmasq[812]: query[A] example.org",
		"Received message  <14>Jun  8 11:15:43 LEDE kernel: [  379.240872] lowmem_reserve[]: 0 0 ",
		"and the log says <4>Jun  8 11:15:43 LEDE kernel: [  379.240872] lowmem_reserve[]: 0 0 ",
		"Received message  <html>Jun  8 11:15:43 LEDE kernel: [  379.240872] x",
		"Received message  <4>Junk 8 11:15:43 LEDE kernel: [  379.240872] x",
	} {
		l, _, _ := parseLine(1, raw)
		if l.Kernel {
			t.Errorf("%q read as a kernel record: %+v", raw, l)
		}
	}
}

const fix24cDockerState = "```\n[~] # docker inspect ovpn\n[\n    {\n        \"State\": {\n            \"Status\": \"exited\",\n            \"Running\": false,\n            \"Paused\": false,\n            \"Restarting\": false,\n            \"OOMKilled\": false,\n            \"Dead\": false,\n            \"Pid\": 0,\n            \"ExitCode\": 137,\n            \"Error\": \"\",\n            \"FinishedAt\": \"2018-10-15T11:53:28.311823005Z\"\n        }\n    }\n]\n```\n"

func TestFix24cDockerStateNoOOM(t *testing.T) {
	for _, text := range []string{
		"Container starts and crashes after 20 seconds.\n\n" + fix24cDockerState,
		"Container crashes.\n\n{\"Status\":\"exited\",\"Running\":false,\"Paused\":false,\"Restarting\":false,\"OOMKilled\":false,\"Dead\":false,\"Pid\":0,\"ExitCode\":137,\"Error\":\"\"}\n",
	} {
		tl := ParseString(text, "t", Options{})
		s := terminatedIn(tl)
		if s == nil || s.ExitCode == nil || *s.ExitCode != 137 || s.Reason == "OOMKilled" {
			t.Errorf("%q: terminated state %+v", text, s)
		}
		if len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as an OOM: %+v", text, tl.RuntimeOOMs)
		}
	}
	// Counter-cases: a running container's State, the key named in a sentence, the key
	// without its State (no ExitCode).
	for _, text := range []string{
		"It runs.\n\n{\"Status\":\"running\",\"Running\":true,\"Paused\":false,\"Restarting\":false,\"OOMKilled\":false,\"Dead\":false,\"Pid\":42,\"ExitCode\":0,\"Error\":\"\"}\n",
		"docker inspect says \"OOMKilled\": false and \"ExitCode\": 137 for it.\n",
		"It crashes.\n\n```\n\"OOMKilled\": false,\n```\n",
	} {
		if s := terminatedIn(ParseString(text, "t", Options{})); s != nil {
			t.Errorf("%q: read as a terminated container: %+v", text, s)
		}
	}
}

const fix24cMemInfo = "```\n" +
	"<4>Jun  8 11:15:43 LEDE kernel: [  379.197183] Normal free:1024kB min:1024kB low:1280kB high:1536kB active_anon:13264kB inactive_anon:796kB active_file:464kB inactive_file:468kB unevictable:0kB isolated(anon):0kB isolated(file):0kB present:32768kB managed:28176kB mlocked:0kB dirty:0kB writeback:0kB mapped:44kB shmem:12232kB slab_reclaimable:988kB slab_unreclaimable:4920kB kernel_stack:480kB pagetables:240kB unstable:0kB bounce:0kB free_pcp:0kB local_pcp:0kB free_cma:0kB writeback_tmp:0kB pages_scanned:5956\n" +
	"<4>Jun  8 11:15:43 LEDE kernel: [  379.240872] lowmem_reserve[]: 0 0\n" +
	"<4>Jun  8 11:15:43 LEDE kernel: [  379.244152] Normal: 18*4kB (UME) 51*8kB (UME) 30*16kB (UE) 2*32kB (U) 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 1024kB\n" +
	"<4>Jun  8 11:15:43 LEDE kernel: [  379.268632] Free swap  = 0kB\n" +
	"<4>Jun  8 11:15:43 LEDE kernel: [  379.271497] Total swap = 0kB\n" +
	"<4>Jun  8 11:15:43 LEDE kernel: [  379.274382] 8192 pages RAM\n```\n"

func TestFix24cCrumbTitleOverMemInfo(t *testing.T) {
	const crumb = "PirateBox-Dev/openwrt-piratebox-feed · issue #10 · closed · Makefile\n"
	for _, text := range []string{
		crumb + "# oom during extendRoot-piratebox installation\n\n" + fix24cMemInfo,
		crumb + "labels: bug\n# Out of memory while unpacking\n\n" + fix24cMemInfo,
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 1 {
			t.Errorf("stated OOM %v, want 1: %q", got, text[:80])
		}
	}
	// Counter-cases: the breadcrumbed title without a dump (a program's own "out of
	// memory"), a title that names no OOM, a first line that is no breadcrumb (a sentence
	// with a middle dot), a title that asks.
	for _, text := range []string{
		crumb + "# Raylet out of memory\n\nThe raylet died.\n",
		crumb + "# installation hangs\n\n" + fix24cMemInfo,
		"Price · 3 items · total\n# oom during installation\n\n" + fix24cMemInfo,
		crumb + "# Am I running out of memory\n\n" + fix24cMemInfo,
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("stated OOM %v, want 0: %q", got, text[:60])
		}
	}
}
