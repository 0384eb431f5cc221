package record

// Test helpers for the external tests (package record_test), which read recordings through
// input.Open as the commands do.
var (
	WriteSynth  = writeSynth
	SynthSample = synthSample
	TestHeader  = testHeader
)
