package kernel

// SetNoOpenat2ForTest makes the confined opener use its os.Root fallback (on) or openat2
// (off), and returns the function that restores the previous choice.
func SetNoOpenat2ForTest(on bool) (restore func()) {
	old := noOpenat2
	noOpenat2 = on
	return func() { noOpenat2 = old }
}
