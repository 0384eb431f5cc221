package artifact

import "testing"

// g259 (SELinux 220): "ebitmap_node ate over 40GB of memory" is what one cache took, not the
// machine's size; the machine's own size beside it, and "using 32GB RAM machines", still are.
func TestFix65bConsumedAmountNoHostSize(t *testing.T) {
	for _, c := range []struct {
		text string
		kb   int64
	}{
		{"# ebitmap_node ate over 40GB of memory\n", 0},
		{"The java process consumed about 12 GB of RAM before it died.\n", 0},
		{"The dentry cache grew to 20 GB of memory overnight.\n", 0},
		{"A leak hogging 3 GB of memory on this 8 GB RAM box.\n", 8 << 20},
		{"We are using 32GB RAM machines for the workers.\n", 32 << 20},
		{"Our server has 16 GB of RAM and it was slow.\n", 16 << 20},
	} {
		if got := ParseString(c.text, "p", Options{}).Host.MemTotalKB; got != c.kb {
			t.Errorf("%q: MemTotalKB %d, want %d", c.text, got, c.kb)
		}
	}
}
