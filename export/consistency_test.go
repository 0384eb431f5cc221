package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"

	"headroom/artifact"
	"headroom/diagnose"
	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/report"
	"headroom/source"
)

// One host, three readers: doctor (the rules on a captured host, through the JSON report),
// serve (the exposition of the same capture) and the JSON of the same facts pasted as text
// must agree on the kernel version, on how each NIC counter is classified and on how a GFP
// mode is decoded. Before the facts had one home in kernel/, four NIC tables disagreed on
// rx_discards and rx_discards_phy, and three GFP decoders and four version parsers existed.
func TestDoctorServeArtifactAgree(t *testing.T) {
	const (
		uname   = "Linux vm 6.18.44-fc-v669 #1 SMP PREEMPT_DYNAMIC Thu Nov 20 10:00:00 UTC 2026 x86_64 GNU/Linux"
		release = "6.18.44-fc-v669"
		// A 4.19 report with a mode printed without the kernel's decoding: 0x480020 is
		// GFP_ATOMIC only in the 4.15-4.20 layout (in the host's 6.18 layout it would read
		// __GFP_HIGH|__GFP_NOMEMALLOC|__GFP_ACCOUNT), so the era must come from the report.
		reportRelease = "4.19.0-6-amd64"
		mode          = "0x480020"
	)
	// Driver counters, including the two the old tables disagreed on, a refill counter and
	// virtio_net's per-queue drop (its "kicks" counters say the driver is virtio_net; with no
	// XDP drops on the queue its drops are failed skb allocations, a refill loss:
	// kernel.NICStatsDevice.Classify).
	extra := map[string]int64{"rx_discards": 5, "rx_discards_phy": 7, "rx_no_buffer_count": 3, "alloc_rx_buff_failed": 2, "rx0_drops": 4}

	dmesg, err := os.ReadFile("testdata/alloc_6x_warn_alloc.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("mode:0x820(GFP_ATOMIC)", "mode:"+mode, "6.6.15-amd64", reportRelease).Replace(string(dmesg))
	if !strings.Contains(text, "mode:"+mode) || !strings.Contains(text, reportRelease) {
		t.Fatal("fixture changed: the mode or the release to replace is gone")
	}
	dmesgPath := filepath.Join(t.TempDir(), "alloc.txt")
	if err := os.WriteFile(dmesgPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}

	a := loadCapture(t)
	var ethStats kernel.Counters
	for i := range a.Files {
		switch a.Files[i].Name {
		case kernel.KmsgCapturePath:
			a.Files[i].Data = append(a.Files[i].Data, kernel.FormatKmsg(kmsgFromDmesg(t, dmesgPath, 995_000_000, 384))...)
		case kernel.NICStatsCapturePath("eth0"):
			var st kernel.NICStats
			if err := json.Unmarshal(a.Files[i].Data, &st); err != nil || st.Stats == nil {
				t.Fatalf("eth0 ethtool capture: %v", err)
			}
			for _, n := range slices.Sorted(maps.Keys(extra)) {
				st.Stats.Set(n, extra[n])
			}
			ethStats = *st.Stats
			b, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			a.Files[i].Data = b
		case "proc/sys/kernel/osrelease":
			a.Files[i].Data = []byte(release + "\n")
		}
	}
	if ethStats.Len() == 0 {
		t.Fatal("capture has no eth0 ethtool statistics")
	}

	// doctor on the capture.
	root := kernel.TxtarRoot(a, "consistency.txtar")
	tl, err := source.Collect(context.Background(), root, source.CollectOptions{Options: source.DefaultOptions(), LogSince: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	judge.Finish(tl)
	doctor := jsonReport(t, tl)

	// serve on the same capture.
	c := NewCollector(root, Options{Now: fixedClock(captureTime), Ethtool: true})
	defer c.Close()
	c.Snapshot()
	expo, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain, "headroom_kernel_info", "headroom_nic_loss_total", "headroom_page_allocation_failures_total")
	if err != nil {
		t.Fatal(err)
	}

	// The same facts pasted: uname -a, the kernel log excerpt, ethtool -S.
	var paste strings.Builder
	fmt.Fprintf(&paste, "$ uname -a\n%s\n$ dmesg\n%s\n$ ethtool -S eth0\nNIC statistics:\n", uname, text)
	for i := 0; i < ethStats.Len(); i++ {
		n, v := ethStats.At(i)
		fmt.Fprintf(&paste, "     %s: %d\n", n, v)
	}
	ptl, err := artifact.Parse(strings.NewReader(paste.String()), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pasted := jsonReport(t, ptl)

	// Kernel version.
	info := promSeries(expo, "headroom_kernel_info")
	if len(info) != 1 {
		t.Fatalf("headroom_kernel_info: %v", info)
	}
	want, _ := kernel.ParseKernelVersion(release)
	if doctor.Host.Kernel != release || pasted.Host.Kernel != release || info[0]["release"] != release ||
		info[0]["version"] != want.String() || info[0]["word_bits"] != "64" || doctor.Host.WordBits != 64 || pasted.Host.WordBits != 64 {
		t.Errorf("kernel: doctor %q/%d bits, pasted %q/%d bits, serve %v; want %s (%s, 64 bits)",
			doctor.Host.Kernel, doctor.Host.WordBits, pasted.Host.Kernel, pasted.Host.WordBits, info[0], release, want)
	}

	// NIC loss counters: serve's layer label, the pasted ethtool -S's loss_counters and the
	// counters doctor's nic-rx-overruns names as evidence.
	served := map[string]string{}
	for _, s := range promSeries(expo, "headroom_nic_loss_total") {
		if s["device"] == "eth0" && s["source"] == "ethtool" {
			served[s["counter"]] = s["layer"]
		}
	}
	var pastedLoss map[string]string
	for _, art := range pasted.Artifacts {
		if art.Kind == artifact.KindEthtoolS {
			var d struct {
				Loss map[string]string `json:"loss_counters"`
			}
			if err := json.Unmarshal(art.Data, &d); err != nil {
				t.Fatal(err)
			}
			pastedLoss = d.Loss
		}
	}
	if !maps.Equal(served, pastedLoss) {
		t.Errorf("NIC loss classes differ:\nserve  %v\npasted %v", served, pastedLoss)
	}
	for n, cause := range map[string]string{"rx_discards": "ring", "rx_discards_phy": "ring", "rx_no_buffer_count": "ring", "alloc_rx_buff_failed": "refill", "rx0_drops": "refill", "rx_drops": "stack"} {
		if served[n] != cause {
			t.Errorf("%s: serve says %q, want %q", n, served[n], cause)
		}
	}
	// doctor names every nonzero ring or refill counter of the driver, and nothing else.
	var wantDoctor []string
	for n, cause := range served {
		v, _ := ethStats.Get(n)
		if v > 0 && (cause == kernel.NICCauseRing || cause == kernel.NICCauseRefill) {
			wantDoctor = append(wantDoctor, n)
		}
	}
	sort.Strings(wantDoctor)
	for name, doc := range map[string]document{"capture": doctor, "paste": pasted} {
		var got []string
		for _, f := range doc.Findings {
			if f.ID != "nic-rx-overruns" {
				continue
			}
			for _, e := range f.Evidence {
				if n, ok := strings.CutPrefix(e.What, "eth0 ethtool "); ok {
					got = append(got, n)
				}
			}
		}
		sort.Strings(got)
		if name == "paste" && len(got) == 0 {
			continue // a paste without /proc/net/dev has no interface for the rule to report
		}
		if !slices.Equal(got, wantDoctor) {
			t.Errorf("doctor on the %s names %v as NIC losses, serve and the paste %v", name, got, wantDoctor)
		}
	}

	// GFP decoding: doctor's evidence on the capture and on the paste, the pasted report's
	// decoded flags, and serve's class of the order-3 failure.
	var pastedAF model.AllocFailure
	for _, art := range pasted.Artifacts {
		if art.Kind == artifact.KindAllocFailure {
			if err := json.Unmarshal(art.Data, &pastedAF); err != nil {
				t.Fatal(err)
			}
		}
	}
	if strings.Join(pastedAF.GFPFlags, "|") != "GFP_ATOMIC" || pastedAF.Atomic == nil || !*pastedAF.Atomic {
		t.Errorf("pasted %s on %s decoded as %v (atomic %v), want GFP_ATOMIC, atomic", mode, reportRelease, pastedAF.GFPFlags, pastedAF.Atomic)
	}
	for name, doc := range map[string]document{"capture": doctor, "paste": pasted} {
		if got := gfpEvidence(doc); got != mode+" = GFP_ATOMIC" {
			t.Errorf("doctor on the %s decodes the mode as %q, want %q", name, got, mode+" = GFP_ATOMIC")
		}
	}
	class := kernel.ClassifyGFP(pastedAF.Atomic, pastedAF.GFPFlags, pastedAF.GFPCandidates)
	counted := false
	for _, s := range promSeries(expo, "headroom_page_allocation_failures_total") {
		if s["order"] == "3" && s["value"] != "0" {
			counted = true
			if s["gfp_class"] != class {
				t.Errorf("serve counts the order-3 failure as %q, the pasted report's decoding gives %q", s["gfp_class"], class)
			}
		}
	}
	if !counted || class != kernel.GFPClassAtomic {
		t.Errorf("serve counted the failure: %v; class %q, want atomic", counted, class)
	}
}

// document is the part of the JSON report this test reads, decoded from the bytes doctor
// prints, so that what is compared is what a user sees.
type document struct {
	Host      report.Host `json:"host"`
	Artifacts []struct {
		Kind string          `json:"kind"`
		Data json.RawMessage `json:"data"`
	} `json:"artifacts"`
	Findings []diagnose.Finding `json:"findings"`
}

func jsonReport(t *testing.T, tl *model.Timeline) document {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteJSON(&b, tl, diagnose.Run(tl, nil)); err != nil {
		t.Fatal(err)
	}
	var d document
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// gfpEvidence returns "MODE = FLAGS" from the allocation-failure finding's "GFP mode"
// evidence ("0x480020 = GFP_ATOMIC; atomic (no direct reclaim); ...").
func gfpEvidence(d document) string {
	for _, f := range d.Findings {
		for _, e := range f.Evidence {
			if e.What == "GFP mode" {
				v, _, _ := strings.Cut(e.Value, ";")
				return v
			}
		}
	}
	return ""
}

var promLine = regexp.MustCompile(`^(\w+)\{(.*)\} (\S+)$`)
var promLabel = regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)

// promSeries returns the labels (and "value") of each series of a metric in an exposition.
func promSeries(expo []byte, metric string) []map[string]string {
	var out []map[string]string
	for _, ln := range strings.Split(string(expo), "\n") {
		m := promLine.FindStringSubmatch(ln)
		if m == nil || m[1] != metric {
			continue
		}
		s := map[string]string{"value": m[3]}
		for _, l := range promLabel.FindAllStringSubmatch(m[2], -1) {
			s[l[1]] = l[2]
		}
		out = append(out, s)
	}
	return out
}
