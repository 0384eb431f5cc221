package chart

import (
	"testing"

	"headroom/internal/fuzzbound"
)

// TestMain bounds the minimisation of new fuzz inputs (internal/fuzzbound).
func TestMain(m *testing.M) { fuzzbound.Main(m) }
