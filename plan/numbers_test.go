package plan

import (
	"math"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"headroom/model"
)

// cites reports whether text prints number's Text as a whole figure: not the tail of a longer
// number ("4 pages" inside "14 pages") nor the head of one ("0.75" inside "0.755").
func cites(text string, n Number) bool {
	for off := 0; ; {
		i := strings.Index(text[off:], n.Text)
		if i < 0 {
			return false
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(n.Text):])
		if i == 0 || (!unicode.IsDigit(before) && before != '.') {
			if i+len(n.Text) == len(text) || !unicode.IsDigit(after) {
				return true
			}
		}
		off = i + 1
	}
}

// numberCitedBy names, for each setting, the number its reason must cite: the figure the
// setting is chosen from. Congestion control and the qdisc are chosen by kernel version and
// what the kernel offers, not by a figure, and cite none.
func numberCitedBy(c model.Change) (string, bool) {
	switch {
	case c.Kind == model.ChangeEthtool:
		return strings.TrimSuffix(c.Key, " rx") + " RX ring time", true
	case c.Kind == model.ChangeTC || c.Kind == model.ChangeOther:
		return "rate limit", true
	}
	name, ok := map[string]string{
		"net.ipv4.tcp_rmem":           "tcp_rmem max needed",
		"net.ipv4.tcp_wmem":           "tcp_wmem max needed",
		"net.core.rmem_max":           "rmem_max needed",
		"net.core.wmem_max":           "wmem_max needed",
		"net.ipv4.tcp_mem":            "tcp_mem flows' need",
		"vm.min_free_kbytes":          "min_free_kbytes default",
		"vm.watermark_scale_factor":   "burst + rings",
		"net.core.netdev_max_backlog": "packet rate",
		"net.core.netdev_budget":      "softirq round",
		"net.ipv4.tcp_notsent_lowat":  "notsent_lowat needed",
	}[c.Key]
	return name, ok
}

// Every setting's reason cites the number it is chosen from, and that number is in
// Plan.Numbers with a unit, a derivation and a finite value; over receivers, senders, rate
// limits, NICs with and without drops, hosts with raised and lowered current values, 32-bit
// HighMem kernels and plans the budget does not fit.
func TestReasonsCiteNumbers(t *testing.T) {
	currents := []map[string]string{nil,
		{"net.ipv4.tcp_rmem": "4096 131072 33554432", "net.ipv4.tcp_wmem": "4096 16384 4194304", "net.core.rmem_max": "4194304",
			"net.core.wmem_max": "4194304", "vm.min_free_kbytes": "67584", "net.core.netdev_max_backlog": "5000",
			"net.core.netdev_budget_usecs": "4000", "vm.watermark_scale_factor": "200", "net.ipv4.tcp_mem": "1000 2000 3000"},
		{"net.ipv4.tcp_rmem": "4096 16384 16384", "net.core.rmem_max": "16384", "net.ipv4.tcp_mem": "128 256 512", "vm.min_free_kbytes": "9999999"},
	}
	nics := []NIC{{Name: "eth0", SpeedMbps: 10000, RxRing: 512, RxRingMax: 4096, DropsSeen: true}, {Name: "eth1", RxRing: 256, RxRingMax: 1024}}
	plans, cited := 0, map[string]bool{}
	for _, mem := range []int64{512 << 20, 8 << 30} {
		for _, arch := range []string{"i686", "x86_64"} {
			for _, k := range []string{"2.6.13", "4.9.0", "6.18.44", ""} {
				for _, rate := range []float64{100e6, 10e9} {
					for _, rtt := range []time.Duration{time.Millisecond, 150 * time.Millisecond} {
						for ci, cur := range currents {
							for _, role := range []string{RoleReceiver, RoleSender, RoleBoth} {
								in := Input{BandwidthBitsPerSec: rate, RTT: rtt, Streams: 1 + 15*ci, MemoryBytes: mem, Arch: arch,
									KernelVersion: k, Current: cur, Role: role, NICs: nics[:ci%2*2]}
								if ci == 1 {
									in.RateLimitBitsPerSec, in.RateLimitDestination = rate/4, "192.0.2.0/24"
								} else if ci == 2 {
									in.RateLimitBitsPerSec = rate / 2
								}
								p, err := Compute(in)
								if err != nil {
									t.Fatalf("%+v: %v", in, err)
								}
								plans++
								checkCitations(t, p, cited)
							}
						}
					}
				}
			}
		}
	}
	// Every kind of setting was seen, so no mapping above goes untested.
	for _, name := range []string{"tcp_rmem max needed", "tcp_wmem max needed", "rmem_max needed", "wmem_max needed", "tcp_mem flows' need",
		"min_free_kbytes default", "burst + rings", "packet rate", "softirq round", "notsent_lowat needed", "eth0 RX ring time", "rate limit"} {
		if !cited[name] {
			t.Errorf("no plan had a setting citing %q", name)
		}
	}
	t.Logf("%d plans", plans)
}

func checkCitations(t *testing.T, p Plan, cited map[string]bool) {
	t.Helper()
	byName := map[string]Number{}
	for _, n := range p.Numbers {
		if n.Name == "" || n.Unit == "" || n.Text == "" || n.How == "" || math.IsNaN(n.Value) || math.IsInf(n.Value, 0) {
			t.Fatalf("incomplete number %+v", n)
		}
		if _, dup := byName[n.Name]; dup {
			t.Fatalf("number %q listed twice", n.Name)
		}
		byName[n.Name] = n
	}
	for _, c := range p.Settings {
		name, ok := numberCitedBy(c)
		if !ok {
			if c.Key != "net.ipv4.tcp_congestion_control" && c.Key != "net.core.default_qdisc" {
				t.Fatalf("setting %s %s: no number named for it", c.Kind, c.Key)
			}
			continue
		}
		n, ok := byName[name]
		if !ok {
			t.Fatalf("setting %s: number %q not in Plan.Numbers", c.Key, name)
		}
		if !cites(c.Why, n) {
			t.Fatalf("setting %s: reason does not cite %s %q:\n%s", c.Key, name, n.Text, c.Why)
		}
		cited[name] = true
	}
}

func TestCites(t *testing.T) {
	n := Number{Text: "4 pages"}
	for text, want := range map[string]bool{"4 pages": true, "max 4 pages": true, "14 pages": false, "1.4 pages": false, "x 14 pages and 4 pages": true} {
		if cites(text, n) != want {
			t.Errorf("cites(%q, %q) = %v", text, n.Text, !want)
		}
	}
	if cites("ratio 0.755", Number{Text: "0.75"}) {
		t.Error("0.75 found in 0.755")
	}
}
