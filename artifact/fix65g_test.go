package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// g259 (pastebin L4VwzsVw) under the flattened form: iperf3's report joined onto one line,
// with and without a bulleted paste's "- " before each row, is cut back into its rows and
// read; a sentence that quotes one rate is not.
func TestFix65gFlattenedIperf(t *testing.T) {
	rows := []string{
		"iperf3 -c 192.168.254.14",
		"Connecting to host 192.168.254.14, port 5201",
		"[ 4] local 192.168.254.2 port 35337 connected to 192.168.254.14 port 5201",
		"[ ID] Interval Transfer Bandwidth Retr Cwnd",
		"[ 4] 0.00-1.00 sec 17.2 MBytes 144 Mbits/sec 110 5.66 KBytes",
		"[ 4] 1.00-2.00 sec 16.1 MBytes 135 Mbits/sec 112 4.24 KBytes",
		"- - - - - - - - - - - - - - - - - - - - - - - - -",
		"[ ID] Interval Transfer Bandwidth Retr",
		"[ 4] 0.00-2.00 sec 33.3 MBytes 139 Mbits/sec 222 sender",
		"[ 4] 0.00-2.00 sec 33.0 MBytes 138 Mbits/sec receiver",
	}
	for name, text := range map[string]string{
		"plain":    strings.Join(rows, " ") + "\n",
		"bulleted": "- " + strings.Join(rows, " - ") + "\n",
	} {
		tl := ParseString(text, "p", Options{})
		if !hasArtifactKind(tl, KindIperf) {
			t.Errorf("%s: iperf3 report not read: %v", name, kindsOf(tl))
		}
	}
	prose := "We only get 139 Mbits/sec over 2.00 sec on this link, see [ 4] in the attached log.\n"
	if tl := ParseString(prose, "p", Options{}); hasArtifactKind(tl, KindIperf) {
		t.Errorf("a sentence read as iperf output")
	}
}

func hasArtifactKind(tl *model.Timeline, kind string) bool {
	for _, a := range tl.Artifacts {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

func kindsOf(tl *model.Timeline) []string {
	var ks []string
	for _, a := range tl.Artifacts {
		ks = append(ks, a.Kind)
	}
	return ks
}
