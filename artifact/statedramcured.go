package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix45b (corpus 3792): a build killed by SIGKILL, and the author's word that the same job
// went through once the machine had more RAM. The build tool's own line ("process didn't
// exit successfully: `rustc ...` (signal: 9, SIGKILL: kill)", cargo-util ProcessError; gcc's
// "Killed signal terminated program cc1plus"; make's "Error 137": buildKilledLine) says a
// SIGKILL ended the compiler, which the kernel's OOM killer sends and so does any kill -9 or
// a runner's timeout (named unread, unreadbuildkill.go). "Scaled to 2GB RAM, installation
// went fine": the kill went away when only the memory changed, which rules out the other
// senders (a kill -9 or a timeout does not care how much RAM there is) and leaves the
// kernel's OOM killer on the smaller machine. Read as a stated out-of-memory
// (model.RateStatedOOM, the oom-kill rule's "stated in the text"), cited at the sentence.
//
// Both are needed: a retry that worked with the same memory ("This time without errors.
// 2048MB swap was left untouched", corpus 3791) says the kill was not for memory, and a
// machine upgraded with no kill line before it says nothing about a kill. The sentence must
// state it (reNotAStatement: no question, condition or advice: "if you scale to 4GB it
// should build", "could you try with 2GB RAM?"), and the size must be RAM or memory, not
// swap or disk ("resized the disk to 20GB").

// reRAMCured: the machine given more RAM, then the job went through, in one sentence:
// "Scaled to 2GB RAM, installation went fine", "after upgrading to 4 GB of memory the build
// succeeded", "bumped the VM's RAM to 8GB and it compiled fine".
var reRAMCured = lazyre.New(`\b(?:scal(?:ed|ing)|upgrad(?:ed|ing)|increas(?:ed|ing)|bump(?:ed|ing)|rais(?:ed|ing)|resiz(?:ed|ing)|doubl(?:ed|ing)|add(?:ed|ing)|mov(?:ed|ing)|switch(?:ed|ing))\b(?:\s+up)?[^.;!?]{0,30}?\b(?:to|with)\s+(?:\d+(?:\.\d+)?\s*(?:gb|gib|g|mb|mib)\s+(?:of\s+)?(?:ram|memory)|(?:ram|memory)\s+(?:of\s+)?\d+(?:\.\d+)?\s*(?:gb|gib|g|mb|mib))\b[^.;!?]{0,40}?\b(?:installation|install|build|compil\w*|upgrade|update|it|everything)\s+(?:went\s+(?:fine|well|through|ok)|worked|succeeded|completed|finished|passed|compiled)\b`)

// statedRAMCuredKill: the offsets of a sentence of para saying a job went through after the
// machine got more RAM, when the text holds a build's kill line (hasBuildKill).
func statedRAMCuredKill(para string, hasBuildKill bool) [][]int {
	if !hasBuildKill || !containsFoldASCII(para, "ram") && !containsFoldASCII(para, "memory") {
		return nil
	}
	l := strings.ToLower(para) // (ASCII case folding keeps the offsets for ASCII text; others are skipped below)
	if len(l) != len(para) {
		return nil
	}
	var out [][]int
	for _, m := range reRAMCured.FindAllStringIndex(l, -1) {
		if reNotAStatement.MatchString(sentenceAround(l, m[0], m[1])) || questionAt(para, m[0], m[1]) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// buildKillInText: a line of the text is a build tool's or a runner's report of a process
// killed by SIGKILL (buildKilledLine): a line no reader took stays among the prose lines
// until the unread pass names it, so both are searched.
func (d *doc) buildKillInText() bool {
	for i := range d.ls {
		if buildKillText(d.ls[i].Text) {
			return true
		}
	}
	for _, p := range d.proseLines {
		if buildKillText(p.text) {
			return true
		}
	}
	return false
}

// buildKillText: t is a build's kill line; every form says "Killed", "SIGKILL: kill" or 137.
func buildKillText(t string) bool {
	if !strings.Contains(t, "ill") && !strings.Contains(t, "137") {
		return false
	}
	_, ok := buildKilledLine(t)
	return ok
}
