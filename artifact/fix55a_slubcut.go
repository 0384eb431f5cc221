package artifact

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/model"
)

// fix55a: the SLUB header cut after its node. mm/slub.c slab_out_of_memory prints "SLUB:
// Unable to allocate memory on node %d, gfp=%#x(%pGg)" (4.6+; "on node %d (gfp=0x%x)"
// before), so a header without its gfp is one a text cut: a quote in a sentence that keeps
// the words up to the node, with its syslog tag inside the quotation marks ("... 内核日志里有
// “kernel: SLUB: Unable to allocate memory on node -1”,后来 ..."), a log line a screen or a
// grep cut there. The failure is read as
// the whole header's is (its node; its GFP mode unknown), with its cache and node lines when
// they follow (collectReport). Only the words up to the node and then the line's end or a
// closing quotation mark: "... on node -1 errors" is a sentence about the message. In prose
// (not a kernel log line) it must not be a guide's example, a condition or a question
// (exampleLog, messageHypothetical, messageDoubted), as for a message quoted without its
// prefix.
var reSlubHeadCut = lazyre.New(`SLUB: Unable to allocate memory (?:on CPU \d+ \(of node -?\d+\) )?on node (-?\d+)`)

// slubCutNode is the node of the SLUB header in t cut after its node; ok is false when t
// holds no such header or more words follow it.
func slubCutNode(t string) (node int, ok bool) {
	m := reSlubHeadCut.FindStringSubmatchIndex(t)
	if m == nil {
		return 0, false
	}
	rest := strings.TrimLeft(t[m[1]:], " \t,.")
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && !strings.ContainsRune("\"'`”’」』)）", r) {
		return 0, false
	}
	n, err := strconv.Atoi(t[m[2]:m[3]])
	return n, err == nil
}

// cutSlubHeader reads line i (text t) as a SLUB header cut after its node (above).
func (d *doc) cutSlubHeader(i int, t string) (*model.SlabFailure, bool) {
	node, ok := slubCutNode(t)
	if !ok {
		return nil, false
	}
	if !d.ls[i].Kernel && (messageHypothetical(t) || messageDoubted(t) || d.exampleLog(i)) {
		return nil, false
	}
	return &model.SlabFailure{Node: node}, true
}

// slubCutNote: what a failure read from a cut header lacks.
const slubCutNote = "a SLUB failure (mm/slub.c slab_out_of_memory) whose header the text cut after its node: its GFP mode is not in the text"
