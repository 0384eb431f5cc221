package artifact

import "headroom/internal/lazyre"

// fix50a (corpus 3792): a RAM size that is the target of a resize, followed by its outcome,
// is the size the host was given after the failure, as an experiment, not its memory when it
// failed: "Scaled to 2GB RAM, installation went fine. Scaled back to 1GB and was able to
// see the vault login page" (the host had 1 GB when rustc was killed). A VPS panel's
// "scale", a cloud's "resize", an owner's "upgraded to", "bumped (up) to", "increased to",
// "moved to a droplet with" put the size after the verb; the outcome ("went fine", "was
// able to", "works now", "no more crashes") after the size says what the new size changed.
// statedMemory takes no such size as the host's memory: the size before the resize is the
// failing host's, and the text states it elsewhere or not at all (then memory is unknown).
// A resize followed by the failure again ("upgraded to 4GB RAM and it still gets killed")
// is the host's memory at that failure, and is read.
var (
	reResizeTarget  = lazyre.New(`(?i)\b(?:(?:scaled|upgraded|bumped|increased|raised|resized|expanded|upped|doubled|grew|extended)(?:\s+(?:it|this|that|up|back|down|the\s+(?:server|vps|vm|droplet|instance|machine|host|node|box|ram|memory)))*\s+to|moved\s+(?:it\s+|this\s+)?to\s+an?\s+[^.;!?]{0,40}?\bwith)\s+(?:about\s+|~)?$`)
	reResizeOutcome = lazyre.New(`(?i)\b(?:went\s+(?:fine|well|through|smoothly|ok)|(?:was|were)\s+able\s+to|succeeded|successful(?:ly)?|works?\s+(?:fine|now|again)|worked|(?:is|was)\s+fine|no\s+(?:more\s+)?(?:errors?|problems?|issues?|crash\w*|kills?|oom\w*)|fixed|solved|resolved|went\s+away|completed?|finished|passed)\b`)
	reResizeStill   = lazyre.New(`(?i)\b(?:still|again|same\s+(?:error|problem|issue)|didn'?t\s+help|did\s+not\s+help|no\s+(?:luck|change|difference))\b`)
)

// resizeTarget: the RAM size matched at s[i:j] is the target of a resize followed by a good
// outcome in the rest of its sentence.
func resizeTarget(s string, i, j int) bool {
	if !reResizeTarget.MatchString(s[max(0, i-80):i]) {
		return false
	}
	rest := s[j:]
	if k := resizeSentenceEnd(rest); k >= 0 {
		rest = rest[:k]
	}
	return reResizeOutcome.MatchString(rest) && !reResizeStill.MatchString(rest)
}

// resizeSentenceEnd is the index of the first sentence mark followed by a space or the end in s,
// or -1.
func resizeSentenceEnd(s string) int {
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '.', '!', '?', ';':
			if k+1 == len(s) || s[k+1] == ' ' || s[k+1] == '\n' {
				return k
			}
		}
	}
	return -1
}
