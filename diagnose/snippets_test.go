package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// pasteTimeline reads a pasted snippet (a few real lines of a corpus case) as the CLI does.
func pasteTimeline(t *testing.T, text string) *model.Timeline {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "snippet", artifact.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	tl.DeriveRates()
	return tl
}
