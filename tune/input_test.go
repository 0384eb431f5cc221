package tune

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestParseChangesShapes(t *testing.T) {
	cases := []struct {
		name, in string
		want     []model.Change
	}{
		{"array", `[{"kind":"sysctl","key":"vm.min_free_kbytes","current":"2000","recommended":"20480","why":"order-2 failures","rule":"alloc-fail-fragmented"}]`,
			[]model.Change{{Kind: "sysctl", Key: "vm.min_free_kbytes", Current: "2000", Recommended: "20480", Why: "order-2 failures", Rule: "alloc-fail-fragmented"}}},
		{"plan settings", `{"schema":1,"inputs":{"bandwidth":"1Gbit"},"settings":[{"kind":"sysctl","key":"net.ipv4.tcp_rmem","recommended":"4096 131072 16777216","why":"BDP","rule":"plan"}]}`,
			[]model.Change{{Kind: "sysctl", Key: "net.ipv4.tcp_rmem", Recommended: "4096 131072 16777216", Why: "BDP", Rule: "plan"}}},
		{"changes object", `{"changes":[{"kind":"ethtool","key":"eth0 rx","recommended":"4096","why":"rx_missed_errors"}]}`,
			[]model.Change{{Kind: "ethtool", Key: "eth0 rx", Recommended: "4096", Why: "rx_missed_errors"}}},
		{"doctor report", `{"schema":1,"source":{"kind":"text"},"findings":[
			{"id":"alloc-fail-fragmented","severity":"critical","changes":[{"kind":"sysctl","key":"vm.min_free_kbytes","current":"2000","recommended":"20480","why":"w"}]},
			{"id":"rx-ring-overrun","changes":[{"kind":"ethtool","key":"eth0 rx","recommended":"4096","why":"w2","rule":"explicit"}]},
			{"id":"no-changes"}]}`,
			[]model.Change{
				{Kind: "sysctl", Key: "vm.min_free_kbytes", Current: "2000", Recommended: "20480", Why: "w", Rule: "alloc-fail-fragmented"},
				{Kind: "ethtool", Key: "eth0 rx", Recommended: "4096", Why: "w2", Rule: "explicit"}}},
		{"duplicate same value dropped", `[{"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192"},{"kind":"sysctl","key":"net.core.somaxconn","recommended":" 8192 "}]`,
			[]model.Change{{Kind: "sysctl", Key: "net.core.somaxconn", Recommended: "8192"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseChanges(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d changes %+v, want %d", len(got), got, len(c.want))
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("change %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestParseChangesErrors(t *testing.T) {
	for in, want := range map[string]string{
		``:                                "empty",
		`hello`:                           "want a JSON array or object",
		`{"foo":1}`:                       `needs a "settings", "changes" or "findings" array`,
		`[{"kind":"sysctl","key":"a.b"}]`: "no recommended value",
		`[{"kind":"magic","key":"a","recommended":"1"}]`:                                                    `unknown kind "magic"`,
		`[{"kind":"sysctl","recommended":"1"}]`:                                                             "no key",
		`[{"key":"a.b","recommended":"1"}]`:                                                                 "no kind",
		`[{"kind":"sysctl","key":"../etc/passwd","recommended":"1"}]`:                                       "empty or relative component",
		`[{"kind":"sysctl","key":"a.b","recommended":"1"},{"kind":"sysctl","key":"a.b","recommended":"2"}]`: "asked twice with different values",
		`[] []`: "trailing data",
	} {
		_, err := ParseChanges(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error containing %q", in, err, want)
		}
	}
}

func TestKeyPath(t *testing.T) {
	for key, want := range map[string]string{
		"net.ipv4.tcp_rmem":                "net/ipv4/tcp_rmem",
		"net.ipv4.conf.eth0/100.rp_filter": "net/ipv4/conf/eth0.100/rp_filter",
		"net/ipv4/conf/eth0.100/rp_filter": "net/ipv4/conf/eth0.100/rp_filter",
		"vm.min_free_kbytes":               "vm/min_free_kbytes",
	} {
		got, err := KeyPath(key)
		if err != nil || got != want {
			t.Errorf("KeyPath(%q) = %q, %v; want %q", key, got, err, want)
		}
	}
	for _, bad := range []string{"", "a..b", "/etc", "a.b c", "a.b\n", "net/../x"} {
		if _, err := KeyPath(bad); err == nil {
			t.Errorf("KeyPath(%q) accepted", bad)
		}
	}
	if KeyName("net/ipv4/conf/eth0.100/rp_filter") != "net.ipv4.conf.eth0/100.rp_filter" {
		t.Error("KeyName")
	}
}

func FuzzParseChanges(f *testing.F) {
	f.Add(`[{"kind":"sysctl","key":"vm.min_free_kbytes","recommended":"20480"}]`)
	f.Add(`{"settings":[{"kind":"tc","key":"eth0 root tbf","recommended":"rate 1mbit"}]}`)
	f.Add(`{"findings":[{"id":"x","changes":[{"kind":"other","key":"k","recommended":"r"}]}]}`)
	f.Add(`{"findings":null}`)
	f.Fuzz(func(t *testing.T, in string) {
		changes, err := ParseChanges(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, c := range changes {
			if c.Kind == "" || c.Key == "" {
				t.Fatalf("accepted a change without kind or key: %+v", c)
			}
			if c.Kind == model.ChangeSysctl {
				if _, err := KeyPath(c.Key); err != nil {
					t.Fatalf("accepted bad key %q", c.Key)
				}
			}
		}
	})
}

func FuzzParseEthtoolRings(f *testing.F) {
	f.Add(ethtoolG)
	f.Add("Current hardware settings:\nRX: x\n")
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ParseEthtoolRings(in)
		if err == nil && (r.Current == nil || r.Max == nil) {
			t.Fatal("nil maps without error")
		}
	})
}

func FuzzParseDropIn(f *testing.F) {
	f.Add("# c\nnet.core.somaxconn = 1024\n-vm.swappiness=10\n\n")
	f.Add("x\n=\n;c")
	f.Fuzz(func(t *testing.T, in string) {
		d := parseDropIn(in)
		// Rendering an unmodified parse gives the file back (modulo a final newline).
		out := d.String()
		if strings.TrimSuffix(out, "\n") != strings.TrimSuffix(in, "\n") {
			t.Fatalf("round trip changed the file:\n%q\n%q", in, out)
		}
	})
}
