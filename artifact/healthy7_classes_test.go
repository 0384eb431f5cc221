package artifact

import (
	"testing"

	"headroom/model"
)

// Healthy texts on first contact (issue 29): reference pages (man pages, kernel
// Documentation) describe mechanisms and name versions and keys; none of it is a host's
// state. Each test below holds the minimal snippet of the page that raised the false alarm,
// and a counter-case of the same shape that a report states and must still be read.

// statedRate is the largest value of a stated rate key the text gives any sample.
func statedRate(t *testing.T, text, key string) float64 {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	v := 0.0
	for _, s := range tl.Samples {
		v = max(v, s.Rates[key])
	}
	return v
}

// proc(5) describes what the OOM killer does: "select which process should be killed in an
// out-of-memory (OOM) situation", "the likelihood of this process being killed by the
// OOM-killer" (hyphenated across lines by man), "the risk of getting a process "OOM-killed"",
// "produced when the kernel performs an OOM-killing", and a SysRq table whose rows "(term,
// kill, oom-kill)" and "Allow reboot/poweroff" are two items. Before: oom-kill warned.
func TestOOMMechanismNotStated(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"This file can be used to adjust the score used to  select  which\n       process  should  be  killed in an out-of-memory (OOM) situation.\n", 0},
		{"A positive score increases the like‐\n       lihood of this process being killed by the OOM-killer;  a  nega‐\n       tive score decreases the likelihood.\n", 0},
		{"and  the default check is very weak, leading to the risk of get‐\n       ting a process \"OOM-killed\".\n", 0},
		{"plus the special value -17, which disables OOM-killing  al‐\n       together for this process.\n", 0},
		{"Enables a system-wide task dump (excluding kernel threads) to be\n       produced  when the kernel performs an OOM-killing.\n", 0},
		{"Bit mask of allowed sysrq functions, as follows:\n         32  Enable remount read-only\n         64  Enable signaling of processes (term, kill, oom-kill)\n        128  Allow reboot/poweroff\n", 0},
		// Counter-cases: an out-of-memory that happened is still stated, also when its
		// sentence runs over a hyphenated line end.
		{"Last night the OOM killer killed mysqld on our database server.\n", 1},
		{"Our java process got OOM killed twice yesterday.\n", 1},
		{"Yesterday the OOM killer kil‐\n  led our postgres backend.\n", 1},
		{"When the OOM killer killed the backup job, the host rebooted.\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
}

// tcp(7) on tcp_wmem's default field: "... from the generic global /proc/sys/net/core/wmem_default
// ... The default value is 16 kB." Before: net.core.wmem_default = 16, refused by the kernel
// (sysctl-out-of-range). A size in kB is no count the key holds; a bare number still is.
func TestStatedValueWithUnitNotSetting(t *testing.T) {
	value := func(text string) string {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		for _, m := range tl.Settings {
			if m.Key == "net.core.wmem_default" && m.Value != "" {
				return m.Value
			}
		}
		return ""
	}
	doc := "This value overwrites the initial default buffer size\n       from the generic  global  /proc/sys/net/core/wmem_default\n       defined  for  all protocols.  The default value is 16 kB.\n"
	if v := value(doc); v != "" {
		t.Errorf("tcp(7): wmem_default = %q, want no value (16 kB is a size, not the key's number)", v)
	}
	post := "I looked at /proc/sys/net/core/wmem_default on the box.\nIts value was 212992 there.\n"
	if v := value(post); v != "212992" {
		t.Errorf("post: wmem_default = %q, want 212992", v)
	}
}

// man(1) hyphenates a /proc/sys path where the line ends ("/proc/sys/vm/nr_overcom‐" /
// "mit_hugepages."): the key is the two parts joined, not "vm.nr_overcom-" (before: no kernel
// has this key). A misspelt key that is joined is still the misspelt key.
func TestHyphenatedProcPathJoined(t *testing.T) {
	keys := func(text string) map[string]bool {
		tl := ParseString(text, "p", Options{})
		out := map[string]bool{}
		for _, m := range tl.Settings {
			out[m.Key] = true
		}
		return out
	}
	k := keys("The maximum number of surplus\n       huge  pages  is  controlled  by  /proc/sys/vm/nr_overcom‐\n       mit_hugepages.\n")
	if !k["vm.nr_overcommit_hugepages"] || k["vm.nr_overcom-"] {
		t.Errorf("hyphenated path: keys %v, want vm.nr_overcommit_hugepages", k)
	}
	k = keys("I set /proc/sys/vm/min_kbytes_fr-\nee to 20248 on the NAS.\n")
	if !k["vm.min_kbytes_free"] {
		t.Errorf("hyphenated misspelt path: keys %v, want vm.min_kbytes_free (still the author's key)", k)
	}
}

// A version a reference page gives for a feature ("tcp_abc (Integer; default: 0; Linux 2.6.15
// to Linux 3.8)", "(since Linux 2.6.11)", "Linux 2.4.27/2.6.6 to 2.6.13") is not the host's
// kernel. Before: kernel 2.6.15, and historical keys were called "not in kernel 2.6.15".
func TestFeatureVersionNotHostKernel(t *testing.T) {
	for _, text := range []string{
		"tcp_abc (Integer; default: 0; Linux 2.6.15 to Linux 3.8)\n       Control the Appropriate Byte Count (ABC).\n",
		"/proc/[pid]/oom_adj (since Linux 2.6.11)\n       This file can be used to adjust the score.\n",
		"tcp_bic (Boolean; default: disabled; Linux 2.4.27/2.6.6 to 2.6.13)\n       Enable BIC TCP.\n",
		"This key was removed in Linux 4.12.\n",
		"Available in kernels before 2.6.13 only.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Host.Kernel != "" {
			t.Errorf("%q: kernel %q, want none (a feature's version)", text, tl.Host.Kernel)
		}
	}
	// Counter-cases: the host's release stated as such is still read.
	for text, want := range map[string]string{
		"Our server runs Linux 2.6.32 on a Xeon.\n":       "2.6.32",
		"I upgraded to Linux 5.4 and it still happens.\n": "5.4",
		"The box has kernel 3.10.0-957 from CentOS 7.\n":  "3.10.0-957",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Host.Kernel != want {
			t.Errorf("%q: kernel %q, want %q", text, tl.Host.Kernel, want)
		}
	}
}
