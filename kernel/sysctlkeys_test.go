package kernel

import (
	"math"
	"strings"
	"testing"
)

func TestKnownSysctl(t *testing.T) {
	for _, c := range []struct {
		key     string
		known   bool
		suggest string
	}{
		{"vm.min_free_kbytes", true, ""},
		{"vm.min_kbytes_free", false, "vm.min_free_kbytes"},
		{"/proc/sys/vm/min_kbytes_free", false, "vm.min_free_kbytes"},
		{"net.ipv4.tcp_rmen", false, "net.ipv4.tcp_rmem"},
		{"net.ipv4.tcp_tw_recycle", true, ""},
		{"net.core.hot_list_length", true, ""},
		{"net.ipv4.conf.eth7.rp_filter", true, ""},
		{"net.ipv6.neigh.bond0.gc_stale_time", true, ""},
		{"kernel.frobnicate_everything", false, ""},
	} {
		known, sug := KnownSysctl(c.key)
		if known != c.known || sug != c.suggest {
			t.Errorf("%s: known %v suggest %q, want %v %q", c.key, known, sug, c.known, c.suggest)
		}
	}
	if note, ok := SysctlNote("net.ipv4.tcp_tw_recycle"); !ok || !strings.Contains(note, "4.12") {
		t.Errorf("tcp_tw_recycle note %q", note)
	}
}

func TestSysctlMeans(t *testing.T) {
	for written, want := range map[string]string{
		"vm.min_free_kbytes":           "vm.min_free_kbytes",
		"vm.min_kbytes_free":           "vm.min_free_kbytes", // seed 000: the same words reordered
		"vm/min_free_kbytes":           "vm.min_free_kbytes",
		"/proc/sys/vm/min_free_kbytes": "vm.min_free_kbytes",
		"VM.Min_Free_Kbytes":           "vm.min_free_kbytes",
		"tcp_mem":                      "net.ipv4.tcp_mem", // a unique tail
		"ipv4.tcp_mem":                 "net.ipv4.tcp_mem",
		"ipv6.tcp_mem":                 "", // a tail of no key
		"vm.min_free":                  "",
		"net.min_free_kbytes":          "", // same words, another directory
		"net.core.rmem_maxx":           "", // a near spelling is only a suggestion
		"net.ipv4.tcp_tw_recycle":      "net.ipv4.tcp_tw_recycle",
		"net.ipv4.conf.eth0.rp_filter": "net.ipv4.conf.eth0.rp_filter",
		"":                             "",
	} {
		if got := SysctlMeans(written); got != want {
			t.Errorf("SysctlMeans(%q) = %q, want %q", written, got, want)
		}
	}
}

func TestSysctlRangeAtVersion(t *testing.T) {
	r, ok := LookupSysctlRange("vm.swappiness")
	if !ok {
		t.Fatal("vm.swappiness has no range")
	}
	for _, c := range []struct {
		v     string
		known bool
		want  int64
	}{{"4.19.0", true, 100}, {"5.8.0", true, 200}, {"6.18.0", true, 200}, {"", false, 200}} {
		v, _ := ParseKernelVersion(c.v)
		if got, _ := r.MaxAt(v, c.known); got != c.want {
			t.Errorf("swappiness max on %q: %d, want %d", c.v, got, c.want)
		}
	}
	if r, _ := LookupSysctlRange("net.ipv4.tcp_mem"); r.TypeMax() != math.MaxInt64 || r.Fields != 3 || !r.Ordered {
		t.Errorf("tcp_mem range %+v", r)
	}
	for _, k := range SysctlRangeKeys() {
		if known, _ := KnownSysctl(k); !known {
			t.Errorf("%s has a range but is not a known key", k)
		}
	}
}
