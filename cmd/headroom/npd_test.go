package main

// The node-problem-detector configs in deploy/node-problem-detector are checked here
// against NPD's documented JSON format and the plugin protocol. NPD's own Go module cannot
// be used: the Go module proxy answers 403 ("This module version is not available") for
// k8s.io/node-problem-detector, and the project takes no dependency on a fetched
// repository. So the types below are written from NPD's documentation of the two config
// files (docs/custom_plugin_monitor.md, the system log monitor's README) and decoded
// strictly: a misspelt key is an error here, where NPD would silently ignore it. The
// patterns are compiled the way NPD's log monitor compiles them: the rule's pattern with
// `\z` appended, matched against the buffered kernel-log messages joined by newlines, so a
// pattern must match up to the end of the newest line.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"headroom/artifact"
	"headroom/diagnose"
	"headroom/kernel"
	"headroom/nodecheck"
)

const npdDir = "../../deploy/node-problem-detector"

type npdCondition struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type npdLogRule struct {
	Type      string `json:"type"`
	Condition string `json:"condition"`
	Reason    string `json:"reason"`
	Pattern   string `json:"pattern"`
}

type npdLogMonitor struct {
	Plugin           string         `json:"plugin"`
	LogPath          string         `json:"logPath"`
	Lookback         string         `json:"lookback"`
	BufferSize       int            `json:"bufferSize"`
	Source           string         `json:"source"`
	MetricsReporting *bool          `json:"metricsReporting"`
	Conditions       []npdCondition `json:"conditions"`
	Rules            []npdLogRule   `json:"rules"`
}

type npdPluginRule struct {
	Type      string   `json:"type"`
	Condition string   `json:"condition"`
	Reason    string   `json:"reason"`
	Path      string   `json:"path"`
	Args      []string `json:"args"`
	Timeout   string   `json:"timeout"`
}

type npdPluginMonitor struct {
	Plugin       string `json:"plugin"`
	PluginConfig struct {
		InvokeInterval  string `json:"invoke_interval"`
		Timeout         string `json:"timeout"`
		MaxOutputLength int    `json:"max_output_length"`
		Concurrency     int    `json:"concurrency"`
		MessageChange   bool   `json:"enable_message_change_based_condition_update"`
	} `json:"pluginConfig"`
	Source           string          `json:"source"`
	MetricsReporting *bool           `json:"metricsReporting"`
	Conditions       []npdCondition  `json:"conditions"`
	Rules            []npdPluginRule `json:"rules"`
}

func decodeStrict(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(npdDir, name))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// knownReason: a reason is the id serve exports in headroom_finding{id=...}, or
// "alloc-fail", which stands for the alloc-fail-* rules.
func knownReason(reason string) bool {
	if _, ok := diagnose.Lookup(reason); ok {
		return true
	}
	if reason == "alloc-fail" {
		for _, r := range diagnose.Rules() {
			if strings.HasPrefix(r.ID, "alloc-fail-") {
				return true
			}
		}
	}
	return false
}

func npdCompile(t *testing.T, pattern string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(pattern + `\z`)
	if err != nil {
		t.Fatalf("pattern %q does not compile as NPD compiles it: %v", pattern, err)
	}
	return re
}

// npdMatches is NPD's log-buffer match for a buffer holding the given messages, newest
// last.
func npdMatches(re *regexp.Regexp, buffer ...string) bool {
	return re.MatchString(strings.Join(buffer, "\n"))
}

func TestNPDKernelMonitorRules(t *testing.T) {
	var km npdLogMonitor
	decodeStrict(t, "kernel-monitor-headroom.json", &km)
	if km.Plugin != "kmsg" || km.LogPath != "/dev/kmsg" {
		t.Errorf("plugin %q logPath %q, want kmsg reading /dev/kmsg", km.Plugin, km.LogPath)
	}
	if _, err := time.ParseDuration(km.Lookback); err != nil {
		t.Errorf("lookback: %v", err)
	}
	if km.BufferSize < 1 {
		t.Errorf("bufferSize %d", km.BufferSize)
	}
	// Events only: a permanent condition of the log monitor is never cleared until NPD
	// restarts. The lasting states are the plugin's.
	if len(km.Conditions) != 0 {
		t.Errorf("conditions %v: the log monitor's conditions never clear; they belong to the plugin", km.Conditions)
	}
	byReason := map[string][]*regexp.Regexp{}
	for _, r := range km.Rules {
		if r.Type != "temporary" {
			t.Errorf("rule %q: type %q, want temporary", r.Reason, r.Type)
		}
		if !knownReason(r.Reason) {
			t.Errorf("rule reason %q is not a headroom_finding id", r.Reason)
		}
		byReason[r.Reason] = append(byReason[r.Reason], npdCompile(t, r.Pattern))
	}
	matchesReason := func(reason string, buffer ...string) bool {
		for _, re := range byReason[reason] {
			if npdMatches(re, buffer...) {
				return true
			}
		}
		return false
	}

	// Every text of kernel/messages.go is caught, as the kernel prints it.
	printed := map[string][]string{
		"page-allocation-failure": {
			"swapper/0: page allocation failure: order:0, mode:0x480020(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0",
			"afpd: page allocation failure. order:2, mode:0x20",
			"__alloc_pages: 2-order allocation failed (gfp=0x20/0)",
			"kworker/0:1: vmemmap alloc failure: order:9, mode:0x4cc0(GFP_KERNEL|__GFP_RETRY_MAYFAIL), nodemask=(null),cpuset=/,mems_allowed=0",
		},
		"tcp-out-of-memory": {"TCP: out of memory -- consider tuning tcp_mem", "Out of socket memory", "TCP: out of socket memory"},
		"too-many-orphans":  {"TCP: too many orphaned sockets", "TCP: too many of orphaned sockets"},
		"conntrack-full":    {"nf_conntrack: nf_conntrack: table full, dropping packet", "ip_conntrack: table full, dropping packet."},
	}
	for _, m := range nodecheck.LogMessages() {
		lines := printed[m.Name]
		if len(lines) == 0 {
			t.Errorf("%s: no printed form to test", m.Name)
		}
		for _, text := range m.Texts {
			covered := false
			for _, l := range lines {
				covered = covered || strings.Contains(l, text)
			}
			if !covered {
				t.Errorf("%s: kernel text %q has no printed form in this test", m.Name, text)
			}
		}
		for _, l := range lines {
			if !matchesReason(m.Reason, l) {
				t.Errorf("%s: %q is not matched by a rule with reason %s", m.Name, l, m.Reason)
			}
			// ...also as the newest of a buffer of other messages, and not when it is an
			// older line: NPD matches at the end of the buffer.
			if !matchesReason(m.Reason, "e1000e: eth0 NIC Link is Up", l) {
				t.Errorf("%s: %q not matched as the newest line of the buffer", m.Name, l)
			}
			if matchesReason(m.Reason, l, "e1000e: eth0 NIC Link is Up") {
				t.Errorf("%s: %q matched again when an unrelated line followed it", m.Name, l)
			}
		}
	}

	// The real messages of the corpus: every kernel-log line that holds a text is matched by
	// its reason's rule and by no other reason's; no other kernel-log line is matched.
	files, err := filepath.Glob("../../testdata/corpus/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %v (%d files)", err, len(files))
	}
	hits := map[string]int{}
	kernelLines := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range artifact.SplitLines(string(b)) {
			if !l.Kernel {
				continue
			}
			kernelLines++
			msg := strings.TrimSpace(l.Text)
			var want string
			for _, m := range nodecheck.LogMessages() {
				if m.Matches(msg) {
					want = m.Reason
				}
			}
			// A header the paste cut before its mode (", mode:" on the next physical line,
			// or lost) is not what the kernel logged: warn_alloc prints order and mode in
			// one record.
			if want == "alloc-fail" && !strings.Contains(msg, "mode:") && !strings.Contains(msg, "allocation failed") {
				continue
			}
			// The same for 2.4's header cut inside its "(gfp=0x1f0/0)" (corpus 1011: the
			// paste ends mid-record): __alloc_pages printed the parenthesis whole.
			if _, gfp, ok := strings.Cut(msg, "allocation failed (gfp="); want == "alloc-fail" && ok && !strings.Contains(gfp, ")") {
				continue
			}
			// And 2.4's header a mail wrapped before its "(gfp=...)" (g274's 6145): the
			// physical line ends at "allocation failed", with neither the parenthesis of
			// 2.4.9+ nor the full stop of 2.4.0-2.4.8 that the kernel printed.
			if want == "alloc-fail" && strings.HasSuffix(msg, "-order allocation failed") {
				continue
			}
			for reason := range byReason {
				got := matchesReason(reason, msg)
				switch {
				case reason == want && !got:
					t.Errorf("%s:%d: %q not matched by reason %s", filepath.Base(f), l.No, msg, reason)
				case reason != want && got:
					t.Errorf("%s:%d: %q matched by reason %s, want %q", filepath.Base(f), l.No, msg, reason, want)
				case got:
					hits[reason]++
				}
			}
		}
	}
	t.Logf("corpus: %d kernel-log lines, matched per reason: %v", kernelLines, hits)
	for _, m := range nodecheck.LogMessages() {
		if hits[m.Reason] == 0 {
			t.Errorf("no corpus line matched reason %s", m.Reason)
		}
	}
}

func TestNPDCustomPluginConfig(t *testing.T) {
	var pm npdPluginMonitor
	decodeStrict(t, "custom-plugin-monitor-headroom.json", &pm)
	if pm.Plugin != "custom" {
		t.Errorf("plugin %q: NPD supports only \"custom\"", pm.Plugin)
	}
	interval, err := time.ParseDuration(pm.PluginConfig.InvokeInterval)
	if err != nil || interval <= 0 {
		t.Errorf("invoke_interval %q: %v", pm.PluginConfig.InvokeInterval, err)
	}
	global, err := time.ParseDuration(pm.PluginConfig.Timeout)
	if err != nil {
		t.Fatalf("timeout %q: %v", pm.PluginConfig.Timeout, err)
	}
	if pm.PluginConfig.MaxOutputLength != nodecheck.MaxMessage {
		t.Errorf("max_output_length %d, the checks cut their line at %d", pm.PluginConfig.MaxOutputLength, nodecheck.MaxMessage)
	}
	conds := map[string]npdCondition{}
	for _, c := range pm.Conditions {
		conds[c.Type] = c
	}
	seen := map[string]bool{}
	for _, r := range pm.Rules {
		if r.Type != "permanent" {
			t.Errorf("rule %v: want permanent (a condition that clears when the check says ok)", r.Args)
		}
		if r.Path != "/opt/headroom/headroom" {
			t.Errorf("rule %v: path %q, the image puts headroom at /opt/headroom/headroom", r.Args, r.Path)
		}
		timeout, err := time.ParseDuration(r.Timeout)
		if err != nil || timeout > global {
			t.Errorf("rule %v: timeout %q must parse and not exceed the global %s (NPD refuses the config)", r.Args, r.Timeout, global)
		}
		if len(r.Args) < 2 || r.Args[0] != "check" {
			t.Errorf("rule args %v: want check NAME", r.Args)
			continue
		}
		c, ok := nodecheck.Lookup(r.Args[1])
		if !ok {
			t.Errorf("rule args %v: no such check", r.Args)
			continue
		}
		seen[c.Name] = true
		if r.Condition != c.Condition || r.Reason != c.Reason {
			t.Errorf("rule %s: condition %q reason %q, the check says %q %q", c.Name, r.Condition, r.Reason, c.Condition, c.Reason)
		}
		if !knownReason(r.Reason) {
			t.Errorf("rule %s: reason %q is not a headroom_finding id", c.Name, r.Reason)
		}
		def, ok := conds[r.Condition]
		if !ok {
			t.Errorf("rule %s: permanent condition %q has no default condition (NPD refuses the config)", c.Name, r.Condition)
		} else if def.Reason != c.OKReason || def.Message != c.OKMessage {
			t.Errorf("default condition %s: %q %q, the check says %q %q", def.Type, def.Reason, def.Message, c.OKReason, c.OKMessage)
		}
		// The configured arguments parse, and a run ends within the rule's timeout: on a
		// root without the files the check says unknown (exit 2), never a usage error.
		var out, errb bytes.Buffer
		start := time.Now()
		code := runCheck(context.Background(), append(r.Args[1:], "--root", t.TempDir()), IO{Stdout: &out, Stderr: &errb})
		if code != int(nodecheck.Unknown) || errb.Len() > 0 {
			t.Errorf("rule %v on an empty root: exit %d, stderr %q, want 2 and nothing on stderr", r.Args, code, errb.String())
		}
		if d := time.Since(start); d > timeout {
			t.Errorf("rule %v took %s, above its timeout %s", r.Args, d, timeout)
		}
	}
	for _, c := range nodecheck.Checks() {
		if !seen[c.Name] {
			t.Errorf("check %s has no rule in the plugin config", c.Name)
		}
	}
}

// writeRoot lays files out under a fresh directory as a host's / would hold them.
func writeRoot(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkOnce(t *testing.T, root string, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runCheck(context.Background(), append(args, "--root", root), IO{Stdout: &out, Stderr: &errb})
	if errb.Len() > 0 {
		t.Errorf("check %v: stderr %q", args, errb.String())
	}
	line := out.String()
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Errorf("check %v: output %q is not one line", args, line)
	}
	line = strings.TrimSuffix(line, "\n")
	if len(line) > nodecheck.MaxMessage {
		t.Errorf("check %v: %d bytes, NPD keeps %d: %q", args, len(line), nodecheck.MaxMessage, line)
	}
	return code, line
}

const protocolsHead = "protocol  size sockets  memory press maxhdr  slab module     cl co di ac io in de sh ss gs se re sp bi br ha uh gp em\n"

func protocolsTCP(press string) string {
	return protocolsHead + fmt.Sprintf("TCP       2432     12     900   %-3s     320   yes  kernel      y  y  y  y  y  y  y  y  y  y  y  y  y  n  y  y  y  y  y\n", press)
}

// The plugin sets its condition while the state lasts and clears it at the first run after.
func TestCheckProtocolSetsAndClears(t *testing.T) {
	root := t.TempDir()
	writeRoot(t, root, map[string]string{
		"proc/sys/net/ipv4/tcp_mem": "700\t800\t1000\n",
		"proc/net/sockstat":         "sockets: used 40\nTCP: inuse 12 orphan 0 tw 0 alloc 14 mem 900\n",
		"proc/net/protocols":        protocolsTCP("yes"),
	})
	code, line := checkOnce(t, root, "tcp-memory-pressure")
	if code != 1 || line != "TCP in memory pressure: 900 pages, tcp_mem pressure 800 max 1000" {
		t.Errorf("pressure yes: exit %d %q", code, line)
	}
	// Below tcp_mem[1] but the kernel's flag still set (it clears under tcp_mem[0]): the
	// kernel's state wins.
	writeRoot(t, root, map[string]string{"proc/net/sockstat": "TCP: inuse 12 orphan 0 tw 0 alloc 14 mem 750\n"})
	if code, line = checkOnce(t, root, "tcp-memory-pressure"); code != 1 {
		t.Errorf("flag still set under pressure threshold: exit %d %q", code, line)
	}
	writeRoot(t, root, map[string]string{"proc/net/protocols": protocolsTCP("no")})
	if code, line = checkOnce(t, root, "tcp-memory-pressure"); code != 0 || !strings.HasPrefix(line, "TCP not in memory pressure") {
		t.Errorf("pressure cleared: exit %d %q", code, line)
	}
	// Without /proc/net/protocols: sockstat against tcp_mem[1].
	os.Remove(filepath.Join(root, "proc/net/protocols"))
	if code, _ = checkOnce(t, root, "tcp-memory-pressure"); code != 0 {
		t.Errorf("750 < 800 without protocols: exit %d", code)
	}
	writeRoot(t, root, map[string]string{"proc/net/sockstat": "TCP: inuse 12 orphan 0 tw 0 alloc 14 mem 800\n"})
	if code, line = checkOnce(t, root, "tcp-memory-pressure"); code != 1 || !strings.Contains(line, "at or above tcp_mem pressure") {
		t.Errorf("800 >= 800 without protocols: exit %d %q", code, line)
	}
	writeRoot(t, root, map[string]string{"proc/sys/net/ipv4/tcp_mem": "garbage\n"})
	if code, line = checkOnce(t, root, "tcp-memory-pressure"); code != 2 || !strings.Contains(line, "tcp_mem") {
		t.Errorf("unreadable tcp_mem: exit %d %q", code, line)
	}
}

func zoneinfo(free int64) string {
	return fmt.Sprintf(`Node 0, zone      DMA
  pages free     3840
        min      33
        low      41
        high     49
        spanned  4095
        present  3998
        managed  3840
Node 0, zone   Normal
  pages free     %d
        min      10000
        low      12500
        high     15000
        spanned  1000000
        present  1000000
        managed  980000
Node 0, zone  Movable
  pages free     0
        min      0
        low      0
        high     0
        spanned  0
        present  0
        managed  0
`, free)
}

func TestCheckReserveNearMin(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		free int64
		code int
		word string
	}{
		{200000, 0, "reserve ok: node 0 Normal free 200000"},
		{11300, 0, "reserve ok"}, // 52 % of the min..low band left
		{11200, 1, "near min: node 0 Normal free 11200 pages, min 10000 low 12500"},
		{9000, 1, "below min: node 0 Normal free 9000"},
	} {
		writeRoot(t, root, map[string]string{"proc/zoneinfo": zoneinfo(c.free)})
		code, line := checkOnce(t, root, "reserve-near-min")
		if code != c.code || !strings.HasPrefix(line, c.word) {
			t.Errorf("free %d: exit %d %q, want %d %q...", c.free, code, line, c.code, c.word)
		}
	}
	writeRoot(t, root, map[string]string{"proc/zoneinfo": "Node 0, zone Normal\n  pages free 5\n"})
	if code, line := checkOnce(t, root, "reserve-near-min"); code != 2 {
		t.Errorf("no watermarks: exit %d %q", code, line)
	}
}

func softnetRow(processed, dropped int64) string {
	return fmt.Sprintf("%08x %08x 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n", processed, dropped)
}

func TestCheckSoftnetDropping(t *testing.T) {
	root := t.TempDir()
	p := "proc/net/softnet_stat"
	run := func(before, after string) (int, string) {
		writeRoot(t, root, map[string]string{p: before})
		c, _ := nodecheck.Lookup("softnet-dropping")
		env := nodecheck.Env{Root: kernel.DirRoot(root), Sleep: func(context.Context, time.Duration) error {
			writeRoot(t, root, map[string]string{p: after})
			return nil
		}}
		r := c.Run(context.Background(), env, nodecheck.DefaultOptions)
		return int(r.Status), r.Line()
	}
	code, line := run(softnetRow(100, 5)+softnetRow(100, 0), softnetRow(200, 5)+softnetRow(300, 0))
	if code != 0 || line != "no backlog drops in 2s (300 packets processed)" {
		t.Errorf("steady: %d %q", code, line)
	}
	// Drops since boot do not count, drops between the readings do; CPU 1's column wrapped.
	code, line = run(softnetRow(100, 5)+softnetRow(100, 0xfffffffe), softnetRow(200, 5)+softnetRow(300, 3))
	if code != 1 || line != "5 packets dropped at the input backlog in 2s, CPU 1" {
		t.Errorf("dropping: %d %q", code, line)
	}
	code, line = run(softnetRow(100, 5), "")
	if code != 2 {
		t.Errorf("file emptied: %d %q", code, line)
	}
}

func kmsgRecord(seq int, at time.Duration, msg string) string {
	return fmt.Sprintf("4,%d,%d,-;%s\n", seq, at.Microseconds(), msg)
}

func TestCheckKernelLogWindow(t *testing.T) {
	root := t.TempDir()
	oom := "TCP: out of memory -- consider tuning tcp_mem"
	var log strings.Builder
	log.WriteString(kmsgRecord(1, 10*time.Second, oom)) // long before the window
	log.WriteString(kmsgRecord(2, 10*time.Second, oom))
	log.WriteString(kmsgRecord(3, 30*time.Minute, "e1000e: eth0 NIC Link is Up"))
	log.WriteString(kmsgRecord(4, 55*time.Minute, oom))
	log.WriteString(kmsgRecord(5, 56*time.Minute, "nf_conntrack: nf_conntrack: table full, dropping packet"))
	log.WriteString(kmsgRecord(6, 58*time.Minute, oom))
	log.WriteString(kmsgRecord(7, 60*time.Minute, "e1000e: eth0 NIC Link is Down"))
	writeRoot(t, root, map[string]string{"dev/kmsg": log.String()})
	// A capture root's "now" is its newest record (60 min).
	if code, line := checkOnce(t, root, "tcp-out-of-memory", "--matches=2", "--within=10m"); code != 1 || line != `2 "TCP: out of memory" in 10m, last 2m0s ago` {
		t.Errorf("two in the window: %d %q", code, line)
	}
	if code, line := checkOnce(t, root, "tcp-out-of-memory", "--matches=3", "--within=10m"); code != 0 || line != `2 of 3 "TCP: out of memory" in 10m` {
		t.Errorf("two of three: %d %q", code, line)
	}
	if code, _ := checkOnce(t, root, "tcp-out-of-memory", "--matches=4", "--within=2h"); code != 1 {
		t.Errorf("four in two hours: %d", code)
	}
	if code, line := checkOnce(t, root, "conntrack-full", "--matches=1", "--within=3m"); code != 0 || !strings.HasPrefix(line, "0 of 1") {
		t.Errorf("conntrack outside 3m: %d %q", code, line)
	}
	if code, _ := checkOnce(t, root, "conntrack-full", "--matches=1", "--within=5m"); code != 1 {
		t.Errorf("conntrack within 5m: %d", code)
	}
	if code, _ := checkOnce(t, root, "too-many-orphans", "--matches=1"); code != 0 {
		t.Errorf("no orphans message: %d", code)
	}
	if code, _ := checkOnce(t, root, "tcp-out-of-memory", "--matches=0"); code != 2 {
		t.Errorf("--matches=0: %d", code)
	}
	writeRoot(t, root, map[string]string{"dev/kmsg": "not a kmsg record\n"})
	if code, line := checkOnce(t, root, "page-allocation-failure"); code != 2 {
		t.Errorf("unreadable log: %d %q", code, line)
	}
}

func TestCheckUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"no-such-check"}, {"tcp-memory-pressure", "extra"}, {"softnet-dropping", "--interval=0s"}, {"tcp-memory-pressure", "--bogus"}, {"tcp-memory-pressure", "--host-root=/", "--root=/tmp"}} {
		var out, errb bytes.Buffer
		if code := runCheck(context.Background(), args, IO{Stdout: &out, Stderr: &errb}); code != exitFailure || out.Len() > 0 || errb.Len() == 0 {
			t.Errorf("check %q: exit %d stdout %q stderr %q, want 3, usage on stderr only", args, code, out.String(), errb.String())
		}
	}
}
