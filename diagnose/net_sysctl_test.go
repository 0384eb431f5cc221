package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestSysctlUnknownKey(t *testing.T) {
	t.Run("seed 000: vm.min_kbytes_free", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("vm.min_kbytes_free", "20248", "sysctl-w", 4), mention("vm.min_kbytes_free", "", "prose", 4)}
		f := mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
		if !evidenceHas(f, "vm.min_kbytes_free (sysctl -w, named in prose)", "did the author mean vm.min_free_kbytes?") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if len(f.Changes) != 1 || f.Changes[0].Kind != model.ChangeOther || !strings.Contains(f.Changes[0].Recommended, "vm.min_free_kbytes") {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("a key the host's kernel no longer has", func(t *testing.T) {
		tl := timeline(0)
		tl.Host.Kernel = "5.4.0"
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_tw_recycle", "1", "sysctl.conf", 7)}
		f := mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
		if !evidenceHas(f, "tcp_tw_recycle", "not in kernel 5.4.0: removed in 4.12") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("the same key on a kernel that had it", func(t *testing.T) {
		tl := timeline(0)
		tl.Host.Kernel = "3.10.0"
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_tw_recycle", "1", "sysctl.conf", 7)}
		mustFire(t, run(t, "sysctl-unknown-key", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("vm.min_free_kbytes", "65536", "sysctl.conf", 3), mention("net.ipv4.tcp_rmem", "4096 87380 1048576", "prose", 5)}
		mustBeHealthy(t, run(t, "sysctl-unknown-key", tl))
	})
	t.Run("a sysctl -a listing is the kernel's own", func(t *testing.T) {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_some_future_key", "1", "sysctl-a", 3)}
		mustNotCheck(t, run(t, "sysctl-unknown-key", tl), "no sysctl settings")
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "sysctl-unknown-key", timeline(1)), "no sysctl settings")
	})
}

func TestSysctlOutOfRange(t *testing.T) {
	cases := []struct {
		name, kernel string
		m            model.SettingMention
		sev          Severity // -1: healthy
		want         string
	}{
		{"int overflow in a vector", "", mention("net.ipv4.tcp_rmem", "4096 87380 3000000000", "sysctl.conf", 2), Warning, "above the int maximum 2147483647"},
		{"below the minimum", "", mention("net.core.rmem_max", "1024", "sysctl-w", 2), Warning, "below the minimum 2304"},
		{"tcp_rto_max_ms out of range", "6.15.0", mention("net.ipv4.tcp_rto_max_ms", "500", "sysctl-w", 2), Warning, "below the minimum 1000"},
		{"swappiness 150 before 5.8", "4.19.0", mention("vm.swappiness", "150", "sysctl.conf", 2), Warning, "above the maximum 100"},
		{"swappiness 150 on 6.1", "6.1.0", mention("vm.swappiness", "150", "sysctl.conf", 2), -1, ""},
		{"negative tcp_mem on an old kernel", "4.19.0", mention("net.ipv4.tcp_mem", "-1 2 3", "sysctl-w", 2), Warning, "ignore it silently"},
		{"not a number", "", mention("vm.min_free_kbytes", "64k", "sysctl.conf", 2), Warning, "not a number"},
		{"triplet out of order", "", mention("net.ipv4.tcp_mem", "300 200 100", "sysctl.conf", 2), Info, "not in order"},
		{"too few values", "", mention("net.ipv4.tcp_wmem", "4096 16384", "sysctl-w", 2), Info, "2 of 3 values"},
		{"healthy prose", "", mention("net.ipv4.tcp_rmem", "4096 87380 1048576", "prose", 2), -1, ""},
		{"short key in prose", "", mention("tcp_mem", "98304", "prose", 233), -1, ""},
		// fix17c: the local port range is a pair of ports 1..65535, low ≤ high (1585).
		{"port range above 65535", "", mention("net.ipv4.ip_local_port_range", "1024 65536", "sysctl.conf", 2), Warning, "above the maximum 65535"},
		{"port range from port 0", "", mention("net.ipv4.ip_local_port_range", "0 65535", "sysctl-w", 2), Warning, "below the minimum 1"},
		{"port range reversed", "", mention("net.ipv4.ip_local_port_range", "61000 32768", "sysctl-w", 2), Warning, "above the second"},
		{"port range full and legal", "", mention("net.ipv4.ip_local_port_range", "1024 65535", "sysctl.conf", 2), -1, ""},
		{"port range default", "", mention("net.ipv4.ip_local_port_range", "32768 60999", "prose", 2), -1, ""},
		// A comment on the value's line after all the key's values is not read by the kernel
		// (measured on 6.18: "262144 # c" sets 262144; "4096 131072 6291456 # c" sets the
		// three); before all of them are read it is refused ("4096 131072 # c": EINVAL).
		{"comment after the one value", "", mention("net.core.rmem_default", "26214400 # socket receive buffer (25M)", "sysctl.conf", 2), -1, ""},
		{"comment after the triplet", "", mention("net.ipv4.tcp_rmem", "4096 131072 6291456 # the max", "sysctl.conf", 2), -1, ""},
		{"comment inside the triplet", "", mention("net.ipv4.tcp_rmem", "4096 131072 # the max", "sysctl.conf", 2), Warning, `value 3 ("#") is not a number`},
		{"comment after a refused value", "", mention("net.core.rmem_max", "1024 # too small", "sysctl.conf", 2), Warning, "below the minimum 2304"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl := timeline(0)
			tl.Host.Kernel = c.kernel
			tl.Settings = []model.SettingMention{c.m}
			res := run(t, "sysctl-out-of-range", tl)
			if c.sev < 0 {
				mustBeHealthy(t, res)
				return
			}
			f := mustFire(t, res, c.sev)
			if !evidenceHas(f, c.m.Key, c.want) {
				t.Errorf("evidence: %+v", f.Evidence)
			}
		})
	}
	// A value a guide recommends that the kernel would refuse is said, as Info: it is no
	// failure of the host (corpus 1953's quoted tcp_rmem).
	t.Run("refused value in advice", func(t *testing.T) {
		tl := timeline(0)
		m := mention("net.ipv4.tcp_rmem", `"4096 26214400 26214400"`, "sysctl.conf", 77)
		m.Subject = model.SubjectAdvice
		tl.Settings = []model.SettingMention{m}
		f := mustFire(t, run(t, "sysctl-out-of-range", tl), Info)
		if !strings.Contains(f.Title, "recommends") || !evidenceHas(f, "tcp_rmem", "not a number") || !strings.Contains(f.Evidence[0].Source, "advice") {
			t.Errorf("%s: %+v", f.Title, f.Evidence)
		}
		// The same value as the host's own sysctl.conf line is a warning.
		m.Subject = ""
		tl.Settings = []model.SettingMention{m}
		mustFire(t, run(t, "sysctl-out-of-range", tl), Warning)
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "sysctl-out-of-range", timeline(1)), "no sysctl settings")
	})
}

// FuzzSysctlValue: whatever a text gives as a value, the range check must not panic and
// must say something about every value it refuses.
func FuzzSysctlValue(f *testing.F) {
	for _, s := range []string{"4096 87380 4194304", "-1", "99999999999999999999", "1e3", "", "  7 ", "0x10", "1 2 3 4"} {
		f.Add("net.ipv4.tcp_rmem", s)
		f.Add("vm.swappiness", s)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		tl := timeline(0)
		tl.Host.Kernel = "4.19.0"
		tl.Settings = []model.SettingMention{{Key: key, Value: value, Form: "sysctl.conf", Line: 1}}
		res := run(t, "sysctl-out-of-range", tl)
		for _, fd := range res.Findings {
			if fd.Severity >= Warning && len(fd.Evidence) == 0 {
				t.Fatalf("refused %q = %q without evidence", key, value)
			}
		}
		run(t, "sysctl-unknown-key", tl)
	})
}

// FuzzPhaseLabel: a phase label is free text from a paste; reading a load from it must not
// panic.
func FuzzPhaseLabel(f *testing.F) {
	for _, s := range []string{"5xab -n 5000 -c 200 (~210 connections/sec)", "at the end / (", "1e400 req/s", "~ conn/s", "\x00/ / /"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		tl := pasted([]string{a, b}, repeat(3, vmstatRow(2, 4000, 2000, 40, 30, 30)), repeat(3, vmstatRow(2, 1000, 500, 5, 90, 5)))
		run(t, "kernel-time-growth", tl)
	})
}

func TestSeed000SysctlUnknownKey(t *testing.T) {
	d := Run(parseSeed(t, "000"), nil)
	// The author says the setting worked: the misspelling is the blog's, not the host's.
	f := mustHave(t, d, "sysctl-unknown-key", Info)[0]
	if !evidenceHas(f, "vm.min_kbytes_free", "vm.min_free_kbytes") || !evidenceHas(f, "vm.min_kbytes_free", sysctlWorked) {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if f.Severity != Info || strings.Contains(f.Title, "never took effect") {
		t.Errorf("%s %q", f.Severity, f.Title)
	}
}
