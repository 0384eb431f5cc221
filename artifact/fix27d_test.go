package artifact

import (
	"strings"
	"testing"
)

// fix27d: InnoDB's pre-5.6 buffer-pool failure ("InnoDB: Fatal error: cannot allocate memory
// for the buffer pool", buf0buf.c) is the program's own allocation refused, named as such and
// never a kernel OOM; a sentence that only talks about the error stays prose.
func TestFix27dInnoDBOldBufferPool(t *testing.T) {
	h12aNamed(t, "141130 02:12:13 InnoDB: Fatal error: cannot allocate memory for the buffer pool\n",
		map[int]string{1: "InnoDB (MySQL 5.5"})
	h12aNamed(t, "Fatal error: cannot allocate memory for the buffer pool\n",
		map[int]string{1: "buf0buf.c"})
	// Another program's line with the same first words is not InnoDB's.
	tl := ParseString("Fatal error: cannot allocate memory for the render cache\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "InnoDB") {
			t.Errorf("another program's line named as InnoDB's: %+v", u)
		}
	}
}

// fix27d: a command line whose value is a template ("sysctl -w KEY=VALUE", "echo <bytes> >
// /proc/sys/...") names the key with no value; a real value, or a word that is no field's
// name (a misspelt number), is still the value written.
func TestFix27dCommandTemplateValue(t *testing.T) {
	for _, tc := range []struct{ line, key, want string }{
		{"・ # sysctl -w net.ipv4.tcp_max_orphans=VALUE", "net.ipv4.tcp_max_orphans", ""},
		{"# echo <bytes> > /proc/sys/net/core/rmem_max", "net.core.rmem_max", ""},
		{"# sysctl -w net.ipv4.tcp_max_orphans=262144", "net.ipv4.tcp_max_orphans", "262144"},
		{"# sysctl -w net.ipv4.tcp_max_orphans=auto", "net.ipv4.tcp_max_orphans", "auto"},
		{"# echo 65536 > /proc/sys/net/netfilter/nf_conntrack_max", "net.netfilter.nf_conntrack_max", "65536"},
	} {
		tl := ParseString(tc.line+"\n", "t", Options{})
		found := false
		for _, s := range tl.Settings {
			if s.Key == tc.key {
				found = true
				if s.Value != tc.want {
					t.Errorf("%q: %s = %q, want %q", tc.line, s.Key, s.Value, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("%q: key %s not named; settings %+v", tc.line, tc.key, tl.Settings)
		}
	}
}
