package artifact

import "testing"

// fix71c (corpus 7355, 7349): a host's output kept in a source's comments. Mesos's sockstat
// example behind "// " and a Datadog check's `conntrack -S` rows behind "# " lose their
// markers; a '#' run of settings, headings or prompts keeps them, and so does a comment run
// without a line of output.
func TestUncommentDataLines(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"sockstat behind //",
			"    // Example output:\n\n    // $ cat /proc/net/sockstat\n    // sockets: used 1391\n    // TCP: inuse 33 orphan 0 tw 0 alloc 37 mem 6\n    Try<string> value;\n",
			"    // Example output:\n\n    $ cat /proc/net/sockstat\n    sockets: used 1391\n    TCP: inuse 33 orphan 0 tw 0 alloc 37 mem 6\n    Try<string> value;\n"},
		{"conntrack rows behind #",
			"        # Sample output:\n        # cpu=0           found=0 invalid=7796 drop=0\n        # cpu=1           found=0 invalid=7234 drop=0\n",
			"        # Sample output:\n        cpu=0           found=0 invalid=7796 drop=0\n        cpu=1           found=0 invalid=7234 drop=0\n"},
		{"disabled settings", "# vm.min_free_kbytes = 65536\n# net.core.rmem_max = 16777216\n", "# vm.min_free_kbytes = 65536\n# net.core.rmem_max = 16777216\n"},
		{"prose comments", "// This takes 5 seconds\n// and then 10 more\n", "// This takes 5 seconds\n// and then 10 more\n"},
		{"one row", "# cpu=0 found=0 invalid=1\nx\n", "# cpu=0 found=0 invalid=1\nx\n"},
	} {
		if got := uncommentDataLines(tc.text); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
