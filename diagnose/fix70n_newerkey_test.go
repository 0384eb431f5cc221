package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// fix70n (corpus 7068): a 2025 patch series' test transcript sets net.core.bypass_prot_mem,
// a key its own series adds. A key near no listed key, for a kernel not known to be older
// than the list's, is a newer kernel's or a module's as likely as a misspelling: Info, and
// no "never took effect". A near miss stays a warning, and so does an unknown key on a
// kernel the list covers (the counter-cases).
func TestUnknownKeyNewerThanTheList(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       Severity
	}{
		{"newer key", "  # sysctl -q net.core.bypass_prot_mem=1\n", Info},
		{"near miss", "  # sysctl -w vm.min_kbytes_free=65536\n", Warning},
		{"old kernel", "Linux version 4.19.0-16-amd64 (debian-kernel@lists.debian.org)\n  # sysctl -q net.core.bypass_prot_mem=1\n", Warning},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		d := Run(tl, nil)
		var got *Finding
		for i := range d.Findings {
			if d.Findings[i].ID == "sysctl-unknown-key" {
				got = &d.Findings[i]
			}
		}
		if got == nil {
			t.Errorf("%s: no sysctl-unknown-key among %v", tc.name, ids(d))
			continue
		}
		if got.Severity != tc.want || tc.want == Info && strings.Contains(got.Title, "never took effect") {
			t.Errorf("%s: %v %q, want %v", tc.name, got.Severity, got.Title, tc.want)
		}
	}
}
