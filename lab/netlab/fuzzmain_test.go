package netlab

import (
	"testing"

	"headroom/internal/fuzzbound"
)

// TestMain bounds the minimisation of new fuzz inputs (internal/fuzzbound). This test
// binary serves no helper mode but the guardian (this package's init): any other mode exits
// at once rather than running the tests a second time.
func TestMain(m *testing.M) {
	ServeHelpers(nil)
	fuzzbound.Main(m)
}
