package artifact

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// h38a: a platform's own notice that it killed a workload for memory, as its log prints it.
// Each is the platform acting at the memory limit of the workload (a dyno, an instance, a
// function), never the host's memory: read as a container's terminated state with reason
// OOMKilled (the OOM at a memory cgroup's limit, OOMScopeCgroup) and the figures the line
// carries (the limit, the memory used) as the state's fields.
//
//   - Heroku's dyno manager, "Error R15 (Memory quota vastly exceeded)" (devcenter.heroku.com/
//     articles/error-codes#r15-memory-quota-vastly-exceeded: a dyno at 5× its quota, 2× for
//     larger dynos, is killed with SIGKILL), under its "heroku[web.1]:" prefix (logplex) or a
//     drain's "heroku/web.1:" tag; the figures from the "Process running mem=2565M(501.0%)"
//     line it prints just before (the memory used and its share of the quota).
//     "Error R14 (Memory quota exceeded)" is NOT a kill (the dyno pages to swap above its
//     quota; the whacamole gem's README quotes Heroku's docs: "This doesn't terminate the
//     process"): read apart (platformQuota below, fix43a), never as a kill.
//   - Cloud Run's and Cloud Functions' (2nd gen) "Memory limit of 512 MiB exceeded with 530
//     MiB used. Consider increasing the memory limit, see https://cloud.google.com/run/docs/
//     configuring/memory-limits" (the page: "Cloud Run instances that exceed their allowed
//     memory limit are terminated"; the line as pasted in TytaniumDev/MagicBracketSimulator
//     PR 146 and centrifuge/apps PR 1924).
//   - App Engine standard's "Exceeded soft memory limit of 256 MB with 270 MB after servicing
//     1523 requests total" (the instance is shut down after the request; older runtimes say
//     "soft private memory limit", with or without "of N MB", Khan Academy's webapp log
//     scripts quote both) and "Exceeded hard memory limit ..." (killed during the request).
//   - Cloud Functions (1st gen): "Error: memory limit exceeded. Function invocation was
//     interrupted." and the older "Function killed. Error: memory limit exceeded"
//     (googleapis/nodejs-firestore issue 1077, firebase/functions-samples issue 37).
//   - Fly.io's init in the machine's VM: "Process appears to have been OOM killed!"
//     (phoenixframework/flame issue 63, after "Main child exited with signal (with signal
//     'SIGKILL' ...)"): the VM's own kernel killed it, the machine being the host
//     (OOMScopeHost); the kernel's "Out of memory: Killed process" in the same log is read as
//     the kernel's and the notice is then the same kill (mem_oom.go counts it once).
//
// Only the line itself, the notice after nothing but a log's stamp, level and tag
// (platformPrefix): a sentence that quotes it ("we keep getting Error R15 ..."), a question
// ("what does R15 mean?"), the docs' explanation ("R15 is raised when ...") and advice ("set
// the memory limit to 1 GiB") are not read, nor lines under an example's lead-in.
var (
	reHerokuR15       = lazyre.New(`Error R15 \(Memory quota vastly exceeded\)$`)
	reHerokuR14       = lazyre.New(`Error R14 \(Memory quota exceeded\)$`)
	reHerokuMem       = lazyre.New(`Process running mem=(\d+(?:\.\d+)?)M\((\d+(?:\.\d+)?)%\)$`)
	reHerokuSample    = lazyre.New(`\bsample#memory_(total|rss|cache|swap|quota|pgpgin|pgpgout)=(\d+(?:\.\d+)?)(MB|pages)(?:\s|$)`)
	reCloudRunLimit   = lazyre.New(`Memory limit of (\d+(?:\.\d+)?) ?(MiB|MB|GiB|GB|M|G) exceeded with (\d+(?:\.\d+)?) ?(MiB|MB|GiB|GB|M|G) used\b`)
	reAppEngineLimit  = lazyre.New(`Exceeded (soft|hard) (?:private )?memory limit (?:of (\d+(?:\.\d+)?) ?(MB|MiB) )?with (\d+(?:\.\d+)?) ?(MB|MiB) after +servicing \d+ requests total\b`)
	reGCFMemory       = lazyre.New(`(?:Error: memory limit exceeded\. Function invocation was interrupted\.?|Function killed\. Error: memory limit exceeded\.?)$`)
	reFlyOOMNotice    = lazyre.New(`(?:INFO +)?Process appears to have been OOM killed!$`)
	rePlatformPrefixW = lazyre.New(`^(?:\S*\d\S*|[A-Za-z][\w.-]*\[[^\]\s]*\]:?|[\w.-]+/[\w.-]+:|\[[^\]]*\]\S*|[A-Z]+:?|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|[a-z]+[A-Z_-][\w.-]*|[-*+•\x60]+|\|)$`)
	reFlyRegion       = lazyre.New(`^[a-z]{3}$`)
)

// platformNeedles: fixed strings one of the notices above holds, tested before any regexp.
var platformNeedles = []string{"R15 (Memory quota", "R14 (Memory quota", "emory limit of ", "memory limit exceeded", "xceeded soft ", "xceeded hard ", "OOM killed!"}

func platformNeedle(t string) bool {
	for _, n := range platformNeedles {
		if strings.Contains(t, n) {
			return true
		}
	}
	return false
}

// platformPrefix: s, the text before a notice, is nothing but a log's stamp, level, host and
// tag: each field a stamp or id (a digit in it), a tag with its bracket ("heroku[web.1]:",
// "app[148e4d55f36278]"), a drain's "heroku/web.1:", a bracketed level, an upper-case level
// or zone, a month, an identifier in camel, snake or kebab case (a function's or a host's
// name), and Fly's three-letter region between its "app[ID]" tag and its "[info]" level. A word of prose is none.
func platformPrefix(s string) bool {
	fs := strings.Fields(s)
	if len(fs) > 10 {
		return false
	}
	for k, f := range fs {
		if rePlatformPrefixW.MatchString(f) {
			continue
		}
		if reFlyRegion.MatchString(f) && (k > 0 && strings.HasSuffix(fs[k-1], "]") || k+1 < len(fs) && strings.HasPrefix(fs[k+1], "[")) {
			continue
		}
		return false
	}
	return true
}

// platformKillLine reads one line's notice: the state it says and, for Heroku's R15, whether
// the figures are on the line before (mem=...).
func platformKillLine(t string) (s KubeTerminated, scope string, ok bool) {
	t = strings.TrimRight(strings.TrimSpace(t), " .")
	at := func(m []int) bool { return m != nil && platformPrefix(t[:m[0]]) }
	switch {
	case strings.Contains(t, "R15 (Memory quota"):
		if m := reHerokuR15.FindStringIndex(t); at(m) {
			return KubeTerminated{Reason: "OOMKilled", Platform: "Heroku", Reporter: "Heroku's dyno manager (Error R15, Memory quota vastly exceeded: the dyno killed with SIGKILL at several times its memory quota; not the kernel's OOM killer)"}, model.OOMScopeCgroup, true
		}
	case strings.Contains(t, "xceeded soft ") || strings.Contains(t, "xceeded hard "):
		if m := reAppEngineLimit.FindStringSubmatchIndex(t); at(m) {
			s := KubeTerminated{Reason: "OOMKilled", Platform: "App Engine", UsedMiB: platformMiB(t[m[8]:m[9]], t[m[10]:m[11]])}
			lim := "its"
			if m[4] >= 0 {
				s.LimitMiB = platformMiB(t[m[4]:m[5]], t[m[6]:m[7]])
				lim = fmt.Sprintf("the %d MiB", s.LimitMiB)
			}
			when := "after the request it served"
			if t[m[2]:m[3]] == "hard" {
				when = "during the request"
			}
			s.Reporter = fmt.Sprintf("App Engine (Exceeded %s memory limit with %d MiB: the instance shut down %s, at %s instance-class limit)", t[m[2]:m[3]], s.UsedMiB, when, lim)
			return s, model.OOMScopeCgroup, true
		}
	case strings.Contains(t, "emory limit of "):
		if m := reCloudRunLimit.FindStringSubmatchIndex(t); at(m) {
			s := KubeTerminated{Reason: "OOMKilled", Platform: "Cloud Run",
				LimitMiB: platformMiB(t[m[2]:m[3]], t[m[4]:m[5]]), UsedMiB: platformMiB(t[m[6]:m[7]], t[m[8]:m[9]])}
			s.Reporter = fmt.Sprintf("Cloud Run (Memory limit of %d MiB exceeded with %d MiB used: the instance terminated at its memory limit)", s.LimitMiB, s.UsedMiB)
			return s, model.OOMScopeCgroup, true
		}
	case strings.Contains(t, "memory limit exceeded"):
		if m := reGCFMemory.FindStringIndex(t + "."); m != nil && platformPrefix(t[:m[0]]) {
			return KubeTerminated{Reason: "OOMKilled", Platform: "Cloud Functions", Reporter: "Cloud Functions (Error: memory limit exceeded: the invocation interrupted at the function's memory limit)"}, model.OOMScopeCgroup, true
		}
	case strings.Contains(t, "OOM killed!"):
		if m := reFlyOOMNotice.FindStringIndex(t); m != nil && platformPrefix(t[:m[0]]) {
			return KubeTerminated{Reason: "OOMKilled", Platform: "Fly.io", Reporter: "Fly.io's init (Process appears to have been OOM killed!: the machine's kernel killed its main process)"}, model.OOMScopeHost, true
		}
	}
	return KubeTerminated{}, "", false
}

// platformMiB: a figure in MiB (MB taken as MiB, as the platforms mean it; Cloud Run's older
// notice writes the revision's limit as it was set, "953M", read the same way).
func platformMiB(v, unit string) int64 {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0
	}
	if unit == "GiB" || unit == "GB" || unit == "G" {
		f *= 1024
	}
	return int64(f + 0.5)
}

// platformKills reads the notices among the prose lines and the other programs' log lines
// kept for them (keepOther).
func (d *doc) platformKills() {
	for _, ps := range [][]proseLine{d.proseLines, d.platformLines} {
		for k, p := range ps {
			if !platformNeedle(p.text) || d.exampleLines[p.no] || d.platformExample(p.no) {
				continue
			}
			if strings.Contains(p.text, "R14 (Memory quota") {
				d.platformQuota(ps, k)
				continue
			}
			s, scope, ok := platformKillLine(p.text)
			if !ok {
				continue
			}
			first := p.no
			if s.Platform == "Heroku" && k > 0 && ps[k-1].no == p.no-1 {
				// "Process running mem=2565M(501.0%)" right above: the memory used and its
				// share of the quota, so the quota.
				prev := strings.TrimSpace(ps[k-1].text)
				if m := reHerokuMem.FindStringSubmatchIndex(prev); m != nil && platformPrefix(prev[:m[0]]) {
					used, _ := strconv.ParseFloat(prev[m[2]:m[3]], 64)
					pct, _ := strconv.ParseFloat(prev[m[4]:m[5]], 64)
					s.UsedMiB = int64(used + 0.5)
					if pct > 0 {
						s.LimitMiB = int64(used*100/pct + 0.5)
					}
					first = ps[k-1].no
					s.Reporter = fmt.Sprintf("Heroku's dyno manager (Error R15, Memory quota vastly exceeded: the dyno at %d MiB, %s%% of its %d MiB quota, killed with SIGKILL; not the kernel's OOM killer)", s.UsedMiB, prev[m[4]:m[5]], s.LimitMiB)
				}
			}
			d.addPlatformKill(s, scope, first, p.no)
		}
	}
}

func (d *doc) addPlatformKill(s KubeTerminated, scope string, first, last int) {
	d.addArtifact(KindKubeTerminated, first, last, s)
	d.addRuntimeOOM(model.RuntimeOOM{Scope: scope, Reporter: s.Reporter, Source: fmt.Sprintf("%s's notice at line %d", s.Platform, last)})
}

// platformExample: line no is under an example's lead-in ("For example:", exampleLog), where
// the parse still holds it.
func (d *doc) platformExample(no int) bool {
	i := sort.Search(len(d.ls), func(i int) bool { return d.ls[i].No >= no })
	return i < len(d.ls) && d.ls[i].No == no && d.exampleLog(i)
}

// fix43a: Heroku's "Error R14 (Memory quota exceeded)" (devcenter.heroku.com/articles/
// error-codes#r14-memory-quota-exceeded): the dyno's memory is above its quota and the excess
// is paged to swap; the dyno keeps running (R15 is the kill). The dyno manager prints it
// after "Process running mem=807M(157.7%)" (the dyno's memory, swap included, and its share
// of the quota), sometimes with an earlier stamp than that line; log-runtime-metrics
// (labs feature, devcenter.heroku.com/articles/log-runtime-metrics) adds a line of samples,
// "sample#memory_total=1210.76MB sample#memory_rss=512.00MB sample#memory_cache=0.00MB
// sample#memory_swap=698.76MB sample#memory_pgpgin=604160pages sample#memory_pgpgout=473088pages"
// and, on newer stacks, "sample#memory_quota=512.00MB". Each notice is read with the figures
// of the lines beside it as a platform_memory artifact: the quota (the sample's, else
// mem×100/share), the memory used, and the swap where the samples say it. No kill, no OOM:
// the swap-under-load rule does not judge a platform's snapshot without a rate, so no rule
// fires from it. Counter-cases as for R15: the notice quoted in a sentence, a title
// ("# Error R14 ..."), a question, the docs' explanation.

// KindPlatformMem: a platform's notice that a workload is over its memory quota, not killed.
const KindPlatformMem = "platform_memory"

// PlatformMemory is one such notice and the figures printed beside it.
type PlatformMemory struct {
	Platform string `json:"platform"`
	Notice   string `json:"notice"`
	// UsedMiB and QuotaPercent: "Process running mem=807M(157.7%)".
	UsedMiB      float64 `json:"used_mib,omitempty"`
	QuotaPercent float64 `json:"quota_percent,omitempty"`
	// QuotaMiB: the sample's memory_quota, else derived from the used memory and its share.
	QuotaMiB float64 `json:"quota_mib,omitempty"`
	// Samples: log-runtime-metrics' memory samples by name (total, rss, cache, swap in MB;
	// pgpgin, pgpgout in pages), as printed.
	Samples map[string]float64 `json:"samples,omitempty"`
}

// platformQuota reads the R14 notice at ps[k] and the figures on the lines right around it.
func (d *doc) platformQuota(ps []proseLine, k int) {
	t := strings.TrimRight(strings.TrimSpace(ps[k].text), " .")
	m := reHerokuR14.FindStringIndex(t)
	if m == nil || !platformPrefix(t[:m[0]]) {
		return
	}
	pm := PlatformMemory{Platform: "Heroku", Notice: "R14 (Memory quota exceeded)"}
	first, last := ps[k].no, ps[k].no
	// The "Process running" line: the one right above, else the one right below (the
	// dyno manager stamps both at once and a drain may order them either way).
	for _, j := range []int{k - 1, k + 1} {
		if j < 0 || j >= len(ps) || abs(ps[j].no-ps[k].no) != 1 {
			continue
		}
		prev := strings.TrimSpace(ps[j].text)
		mm := reHerokuMem.FindStringSubmatchIndex(prev)
		if mm == nil || !platformPrefix(prev[:mm[0]]) {
			continue
		}
		pm.UsedMiB, _ = strconv.ParseFloat(prev[mm[2]:mm[3]], 64)
		pm.QuotaPercent, _ = strconv.ParseFloat(prev[mm[4]:mm[5]], 64)
		first, last = min(first, ps[j].no), max(last, ps[j].no)
		break
	}
	// log-runtime-metrics' memory samples: among the few consecutive lines just above
	// (the load sample's line and the "Process running" line may sit between).
	for j := k - 1; j >= 0 && j >= k-3 && ps[j].no == ps[j+1].no-1; j-- {
		ss := reHerokuSample.FindAllStringSubmatch(ps[j].text, -1)
		if ss == nil {
			if strings.Contains(ps[j].text, "Process running mem=") || strings.Contains(ps[j].text, "sample#") {
				continue
			}
			break
		}
		if pm.Samples == nil {
			pm.Samples = map[string]float64{}
		}
		for _, s := range ss {
			v, _ := strconv.ParseFloat(s[2], 64)
			pm.Samples[s[1]] = v
		}
		first = min(first, ps[j].no)
	}
	switch {
	case pm.Samples["quota"] > 0:
		pm.QuotaMiB = pm.Samples["quota"]
	case pm.UsedMiB > 0 && pm.QuotaPercent > 0:
		pm.QuotaMiB = float64(int64(pm.UsedMiB*100/pm.QuotaPercent + 0.5))
	}
	d.addArtifact(KindPlatformMem, first, last, pm)
}
