package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// An OOM kill stated of what this host's run is compared with (fix18a). A sizing or
// benchmark write-up sets its own runs against another set: "This contrasts with the EC2
// Amazon Linux 2023 results (89-92% RAM) which triggered the OOM killer" (corpus 1620, whose
// own runs had none). The kill is in a relative clause ("which", "that", "where") of the
// thing the sentence contrasts this host with, so it is that other run's. The same
// contrast without the relative clause still states this host's kill ("Unlike yesterday,
// today the leak triggered the OOM killer"; "compared with last week, the OOM killer
// killed twice as many"), as does a kill in the main clause ("the EC2 run triggered the
// OOM killer, unlike this one").

// reContrastRelative: a contrast with another thing, then, within that clause, a relative
// pronoun that opens the clause holding the match.
var reContrastRelative = lazyre.New(`(?i)\b(?:contrasts?(?:ed)?\s+(?:with|to)|in\s+contrast\s+(?:with|to)|unlike|compared\s+(?:with|to)|as\s+opposed\s+to)\b[^,;:]{0,120}?\b(?:which|that|where)\b[^,;:]{0,60}$`)

// comparedOOM: the match stands in a relative clause of the thing the sentence contrasts
// this host with.
func comparedOOM(sentence, match string) bool {
	k := strings.Index(sentence, match)
	if k <= 0 {
		return false
	}
	before := sentence[:k]
	if !strings.Contains(before, "ontrast") && !strings.Contains(before, "nlike") && !strings.Contains(before, "ompared") && !strings.Contains(before, "opposed") {
		return false
	}
	return reContrastRelative.MatchString(before)
}
