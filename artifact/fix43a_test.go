package artifact

import (
	"testing"

	"headroom/model"
)

// fix43a: round 38's first-run misses, by class.
//   - corpora 3601-3603: Heroku's R14 (a dyno over its memory quota, swapping, not killed)
//     with its "Process running mem=" line and log-runtime-metrics' memory samples.
//   - corpus 3606: Cloud Run's older notice with the limit written as set ("953M").
//   - corpus 3629: docker inspect's "OOMKilled": true quoted after the sentence that ran it.
//   - corpus 3638: the kernel's segfault line (show_signal_msg) without its dmesg stamp.

func platformMemOf(tl *model.Timeline) []PlatformMemory {
	var out []PlatformMemory
	for _, a := range artifactsOf(tl, KindPlatformMem) {
		out = append(out, a.Data.(PlatformMemory))
	}
	return out
}

func TestFix43aHerokuR14(t *testing.T) {
	// log-runtime-metrics through a syslog drain (corpus 3601's lines).
	drain := "```\n" +
		"Jan 08 10:55:11 warm-cliffs-8392 heroku/web.1:  source=web.1 dyno=heroku.23223846.3654f538-ec7a-4036-ab26-c533467c9a8a sample#load_avg_1m=0.92 sample#load_avg_5m=0.81 sample#load_avg_15m=0.47 \n" +
		"Jan 08 10:55:11 warm-cliffs-8392 heroku/web.1:  source=web.1 dyno=heroku.23223846.3654f538-ec7a-4036-ab26-c533467c9a8a sample#memory_total=1210.76MB sample#memory_rss=512.00MB sample#memory_cache=0.00MB sample#memory_swap=698.76MB sample#memory_pgpgin=604160pages sample#memory_pgpgout=473088pages \n" +
		"Jan 08 10:55:11 warm-cliffs-8392 heroku/web.1:  Process running mem=1210M(236.5%) \n" +
		"Jan 08 10:55:11 warm-cliffs-8392 heroku/web.1:  Error R14 (Memory quota exceeded) \n```\n"
	tl := ParseString(drain, "t", Options{})
	pm := platformMemOf(tl)
	if len(pm) != 1 {
		t.Fatalf("drain: platform_memory %+v, want 1", pm)
	}
	p := pm[0]
	if p.Platform != "Heroku" || p.UsedMiB != 1210 || p.QuotaPercent != 236.5 || p.QuotaMiB != 512 ||
		p.Samples["swap"] != 698.76 || p.Samples["rss"] != 512 || p.Samples["total"] != 1210.76 || p.Samples["pgpgin"] != 604160 {
		t.Errorf("drain: %+v", p)
	}
	if terminatedIn(tl) != nil || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("drain: R14 read as a kill: %+v %+v", terminatedIn(tl), tl.RuntimeOOMs)
	}
	// The newer samples carry the quota itself; logplex's "heroku[web.1]:" tag; the notice
	// stamped before its "Process running" line (corpus 3603).
	quota := "2026-11-30T14:01:00.000000+00:00 heroku[web.1]: source=web.1 dyno=heroku.1234.abcd sample#memory_total=540.12MB sample#memory_rss=512.30MB sample#memory_cache=0.00MB sample#memory_swap=27.82MB sample#memory_quota=512.00MB\n" +
		"2026-11-30T14:01:00.000000+00:00 heroku[web.1]: Process running mem=540M(105.5%)\n" +
		"2026-11-30T14:01:00.000000+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)\n"
	if pm := platformMemOf(ParseString(quota, "t", Options{})); len(pm) != 1 || pm[0].QuotaMiB != 512 || pm[0].Samples["swap"] != 27.82 || pm[0].UsedMiB != 540 {
		t.Errorf("quota: %+v", pm)
	}
	before := "2015-03-03T00:29:31.162237+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)\n" +
		"2015-03-03T00:29:31.161902+00:00 heroku[web.1]: Process running mem=526M(102.9%)\n"
	if pm := platformMemOf(ParseString(before, "t", Options{})); len(pm) != 1 || pm[0].UsedMiB != 526 || pm[0].QuotaPercent != 102.9 || pm[0].QuotaMiB != 511 {
		t.Errorf("notice first: %+v", pm)
	}
	// Not read: a title, a sentence, a question, the docs' explanation, advice, R15's
	// (a kill, read by platformKills), another program's "quota exceeded".
	for name, text := range map[string]string{
		"title":    "# Error R14 (Memory quota exceeded)\n",
		"sentence": "We keep getting Error R14 (Memory quota exceeded) on the worker dyno\n",
		"question": "What does Error R14 (Memory quota exceeded) mean?\n",
		"docs":     "R14 is raised when a dyno exceeds its memory quota: Error R14 (Memory quota exceeded)\n",
		"advice":   "To stop seeing Error R14 (Memory quota exceeded), lower WEB_CONCURRENCY.\n",
		"r15":      "2026-11-30T14:03:31.000000+00:00 heroku[web.1]: Error R15 (Memory quota vastly exceeded)\n",
		"other":    "2026-11-30T14:03:31.000000+00:00 postgres[123]: ERROR: disk quota exceeded\n",
	} {
		if pm := platformMemOf(ParseString(text, "t", Options{})); len(pm) != 0 {
			t.Errorf("%s: read as R14: %+v", name, pm)
		}
	}
}

func TestFix43aCloudRunLimitAsSet(t *testing.T) {
	tl := ParseString("Memory limit of 953M exceeded with 967M used. Consider increasing the memory limit, see https://cloud.google.com/run/docs/configuring/memory-limits\n", "t", Options{})
	s := terminatedIn(tl)
	if s == nil || s.Reason != "OOMKilled" || s.Platform != "Cloud Run" || s.LimitMiB != 953 || s.UsedMiB != 967 {
		t.Fatalf("state %+v", s)
	}
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Scope != model.OOMScopeCgroup {
		t.Errorf("runtime OOMs %+v", tl.RuntimeOOMs)
	}
	if s := terminatedIn(ParseString("Memory limit of 1G exceeded with 1100M used.\n", "t", Options{})); s == nil || s.LimitMiB != 1024 || s.UsedMiB != 1100 {
		t.Errorf("G: %+v", s)
	}
	for name, text := range map[string]string{
		"quoted":   "We keep getting Memory limit of 953M exceeded with 967M used on the bot.\n",
		"question": "Why does Cloud Run say Memory limit of 953M exceeded with 967M used?\n",
		"advice":   "Set the memory limit of 953M higher.\n",
		"no used":  "Memory limit of 953M exceeded.\n",
	} {
		if s := terminatedIn(ParseString(text, "t", Options{})); s != nil && s.Platform != "" {
			t.Errorf("%s: read as a platform's kill: %+v", name, s)
		}
	}
}

func TestFix43aDockerInspectQuoted(t *testing.T) {
	for _, text := range []string{
		"hm I think you're right...   a docker inspect gave me :  \"OOMKilled\": true\n",
		"docker inspect shows: \"OOMKilled\": true,\n",
		"Running docker container inspect on it returned: \"OOMKilled\": true\n",
	} {
		s := terminatedIn(ParseString(text, "t", Options{}))
		if s == nil || s.Reason != "OOMKilled" {
			t.Errorf("%q: state %+v", text, s)
		}
	}
	for _, text := range []string{
		"check \"OOMKilled\": true in docker inspect\n",
		"Does docker inspect show: \"OOMKilled\": true\n",
		"If docker inspect says: \"OOMKilled\": true, raise the limit\n",
		"docker inspect should show: \"OOMKilled\": true\n",
		"docker inspect gave me: \"OOMKilled\": false\n",
		"docker inspect did not show: \"OOMKilled\": true\n",
		"Is it \"OOMKilled\": true in docker inspect?\n",
		"podman events showed: \"OOMKilled\": true\n",
	} {
		if s := terminatedIn(ParseString(text, "t", Options{})); s != nil && s.Reason == "OOMKilled" {
			t.Errorf("%q: read as an OOM kill: %+v", text, s)
		}
	}
}

func TestFix43aBareSegfaultLine(t *testing.T) {
	for _, text := range []string{
		// corpus 3638: the grep's command and its one line in an inline code span.
		"`sudo dmesg | grep -E \"segfault.*node\" | tail -20\n\nnode[89114]: segfault at 7f1a1e0747f4 ip 00007f1d04c0b3af sp 00007ffecdb6a140 error 4 in mbgl.node[7f1d045d9000+905000]`\n",
		"litespeed[602]: segfault at 7f79b4d0274c ip 0000564c153c60ee sp 00007ffebd6fe440 error 4 in openlitespeed[564c15263000+3f9000] likely on CPU 3 (core 3, socket 0)\n",
		"a.out[2061]: segfault at 0 ip (null) sp bfb0c4ac error 14\n",
		"httpd[311]: segfault at 8 ip 00000000000a1b2c (rpc 00000000000a1b00) sp 000007feffb3f1a0 error 1 in httpd[100000+2a0000]\n",
		"traps: php-fpm[4312] general protection fault ip:55d1c2a1b3c4 sp:7ffd2a1b3c40 error:0 in php-fpm[55d1c2800000+400000]\n",
		"traps: java[771] trap invalid opcode ip:7f0c8a2b1000 sp:7f0c5cffe8a0 error:0 in libjvm.so[7f0c89800000+1000000]\n",
	} {
		tl := ParseString(text, "t", Options{})
		if tl.Log.Len() != 1 || len(tl.Unparsed) != 0 {
			t.Errorf("%q: %d kernel records, unparsed %+v", text, tl.Log.Len(), tl.Unparsed)
		}
		if NothingRead(tl) {
			t.Errorf("%q: nothing read", text)
		}
		if len(tl.RuntimeOOMs) != 0 || terminatedIn(tl) != nil {
			t.Errorf("%q: read as a kill", text)
		}
	}
	for _, text := range []string{
		"Segmentation fault (core dumped)\n",
		"I see node[89114]: segfault at 7f1a1e0747f4 ip 00007f1d04c0b3af sp 00007ffecdb6a140 error 4 every night\n",
		"If you get node[1]: segfault at 0 ip 0 sp 0 error 4, update the binding.\n",
		"WARNING: node[89114] segfault in mbgl.node, restarting\n",
		"systemd-coredump[1234]: Process 89114 (node) of user 1000 dumped core.\n",
	} {
		if tl := ParseString(text, "t", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q: read as a kernel record", text)
		}
	}
}
