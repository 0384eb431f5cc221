package artifact

import (
	"testing"

	"headroom/model"
)

// h38a: platforms' own notices of a kill at a workload's memory limit (platformoom.go; the
// sources of each wording are cited there). Each snippet as an operator pastes it from the
// platform's log viewer or CLI.
func TestH38aPlatformMemoryKills(t *testing.T) {
	for name, c := range map[string]struct {
		text, platform, scope string
		limit, used           int64
	}{
		// devcenter.heroku.com/articles/error-codes#r15-memory-quota-vastly-exceeded
		"heroku r15": {"2026-11-30T14:03:31.000000+00:00 heroku[web.1]: Process running mem=2565M(501.0%)\n" +
			"2026-11-30T14:03:31.000000+00:00 heroku[web.1]: Error R15 (Memory quota vastly exceeded)\n" +
			"2026-11-30T14:03:31.000000+00:00 heroku[web.1]: Stopping process with SIGKILL\n", "Heroku", model.OOMScopeCgroup, 512, 2565},
		"heroku r15 drain": {"Jan 08 10:55:11 warm-cliffs-8392 heroku/web.1: Error R15 (Memory quota vastly exceeded)\n", "Heroku", model.OOMScopeCgroup, 0, 0},
		// cloud.google.com/run/docs/configuring/memory-limits
		"cloud run": {"2026-11-30 14:05:12.345 UTC  ERROR  Memory limit of 512 MiB exceeded with 530 MiB used. Consider increasing the memory limit, see https://cloud.google.com/run/docs/configuring/memory-limits\n", "Cloud Run", model.OOMScopeCgroup, 512, 530},
		// A list item or an inline code span around the notice is a paste's form, not prose
		// (the forms test's bullets of corpus 3607).
		"cloud run bullet code": {"- `Memory limit of 5120 MiB exceeded with 5261 MiB used.`\n", "Cloud Run", model.OOMScopeCgroup, 5120, 5261},
		"cloud run star bullet": {" * Memory limit of 512 MiB exceeded with 530 MiB used.\n", "Cloud Run", model.OOMScopeCgroup, 512, 530},
		"cloud run bare":        {"Memory limit of 2 GiB exceeded with 2100 MiB used. Consider increasing the memory limit, see https://cloud.google.com/functions/docs/configuring/memory\n", "Cloud Run", model.OOMScopeCgroup, 2048, 2100},
		// App Engine standard: the soft limit (shut down after the request) and the hard one.
		"app engine soft":    {"2026-11-30 14:06:01.000 Exceeded soft memory limit of 256 MB with 270 MB after servicing 1523 requests total. Consider setting a larger instance class in app.yaml.\n", "App Engine", model.OOMScopeCgroup, 256, 270},
		"app engine private": {"E 2014-07-01 12:00:00.000 Exceeded soft private memory limit with 260.109 MB after servicing 2406 requests total\n", "App Engine", model.OOMScopeCgroup, 0, 260},
		"app engine hard":    {"Exceeded hard memory limit of 256 MB with 301 MB after servicing 12 requests total. Consider setting a larger instance class in app.yaml.\n", "App Engine", model.OOMScopeCgroup, 256, 301},
		// Cloud Functions 1st gen (googleapis/nodejs-firestore#1077, firebase/functions-samples#37)
		"gcf":     {"2026-11-30 14:07:00.123 myFunction 4x2k9 Error: memory limit exceeded. Function invocation was interrupted.\n", "Cloud Functions", model.OOMScopeCgroup, 0, 0},
		"gcf old": {"Function killed. Error: memory limit exceeded\n", "Cloud Functions", model.OOMScopeCgroup, 0, 0},
		// Fly.io's init (phoenixframework/flame#63)
		"fly": {"2024-10-07T11:37:18Z app[2865134a394268] cdg [info] INFO Main child exited with signal (with signal 'SIGKILL', core dumped? false)\n" +
			"2024-10-07T11:37:18Z app[2865134a394268] cdg [info] INFO Process appears to have been OOM killed!\n", "Fly.io", model.OOMScopeHost, 0, 0},
	} {
		tl := ParseString(c.text, "t", Options{})
		s := terminatedIn(tl)
		if s == nil || s.Reason != "OOMKilled" || s.Platform != c.platform || s.LimitMiB != c.limit || s.UsedMiB != c.used {
			t.Errorf("%s: state %+v", name, s)
			continue
		}
		if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Scope != c.scope {
			t.Errorf("%s: runtime OOMs %+v", name, tl.RuntimeOOMs)
		}
	}
}

// Not a platform's kill: R14 (over quota, swapping, no kill), the runtime-metrics line, the
// docs' explanation, a question, advice, a sentence quoting the notice, an example's lead-in,
// another program's "memory limit" line.
func TestH38aPlatformMemoryKillCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"r14":         "2026-11-30T14:02:11.000000+00:00 heroku[web.1]: Process running mem=1028M(200.8%)\n2026-11-30T14:02:11.000000+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)\n",
		"metrics":     "2026-11-30T14:01:00.000000+00:00 heroku[web.1]: source=web.1 dyno=heroku.1234.abcd sample#memory_total=540.12MB sample#memory_rss=512.30MB sample#memory_quota=512.00MB\n",
		"docs":        "R15 is raised when a dyno reaches five times its quota: Error R15 (Memory quota vastly exceeded)\n",
		"question":    "What does Error R15 (Memory quota vastly exceeded) mean?\n",
		"advice":      "Set the memory limit to 1 GiB to avoid \"Error: memory limit exceeded. Function invocation was interrupted.\"\n",
		"quoted":      "We keep getting Memory limit of 512 MiB exceeded with 530 MiB used. Consider increasing the memory limit\n",
		"fly asked":   "Does anyone know why Process appears to have been OOM killed! shows up?\n",
		"example":     "When an instance goes over, you will see something like:\n\n    Memory limit of 512 MiB exceeded with 530 MiB used.\n",
		"app engine?": "Why would App Engine say Exceeded soft memory limit of 256 MB with 270 MB after servicing 10 requests total?\n",
		"other prog":  "php[123]: PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindKubeTerminated && a.Data.(KubeTerminated).Platform != "" {
				t.Errorf("%s: read as a platform's kill: %+v", name, a.Data)
			}
		}
	}
}
