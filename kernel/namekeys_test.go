package kernel

import (
	"strings"
	"testing"
)

// nameKeys.at must answer exactly what txtMatch answers for a plain name, wherever the name
// falls in the text, at its very end included (where the eight-byte loads cannot be used).
func TestNameKeysAgreeWithTxtMatch(t *testing.T) {
	names := []string{"a", "tw", "mem", "inuse", "MemFree", "Cached:x", "nr_free_pages",
		"TCPHPHits123456", "nr_zone_inactive_anon", "workingset_refault_anon1",
		"compact_daemon_migrate_scanned"}
	for _, name := range names {
		c := Counters{}
		c.Set(name, 1)
		k := c.nameKeys()
		if strings.ContainsAny(name, ": ") != !k.ok {
			t.Fatalf("%q: ok %v", name, k.ok)
		}
		for _, text := range []string{name, name + " 1\n", "x" + name, name[:len(name)-1], name[:len(name)-1] + "Z 1\n",
			"Z" + name[1:] + " 1\n", strings.Repeat(" ", 30) + name} {
			b := []byte(text)
			for i := -1; i <= len(b)+1; i++ {
				if k.ok {
					if got, want := k.at(b, i, 0), i >= 0 && i <= len(b) && txtMatch(b, i, name); got != want {
						t.Errorf("%q in %q at %d: keys say %v, txtMatch %v", name, text, i, got, want)
					}
				}
			}
		}
	}
}

// Adding, removing or renaming a counter drops the cached keys.
func TestNameKeysDropped(t *testing.T) {
	var c Counters
	c.Set("alpha_beta_gamma", 1)
	k := c.nameKeys()
	c.Set("alpha_beta_gamma", 2) // a value: keys stay
	if c.keys != k {
		t.Fatal("keys dropped on a value change")
	}
	c.Set("delta", 3)
	if c.keys != nil {
		t.Fatal("keys kept after a new name")
	}
	c.nameKeys()
	c.truncate(1)
	if c.keys != nil {
		t.Fatal("keys kept after truncate")
	}
	c.nameKeys()
	c.Reset()
	if c.keys != nil {
		t.Fatal("keys kept after Reset")
	}
}

func FuzzNameKeys(f *testing.F) {
	f.Add("nr_free_pages", []byte("nr_free_pages 12\n"), 0)
	f.Add("tw", []byte("TCP: inuse 1 tw 2"), 13)
	f.Add("workingset_refault_anon", []byte("workingset_refault_anon 0"), 0)
	f.Fuzz(func(t *testing.T, name string, b []byte, i int) {
		if name == "" || !txtPlain([]byte(name), 0, len(name)) {
			return
		}
		var c Counters
		c.Set(name, 0)
		k := c.nameKeys()
		want := i >= 0 && i <= len(b) && txtMatch(b, i, name)
		if got := k.at(b, i, 0); got != want {
			t.Fatalf("%q in %q at %d: keys say %v, txtMatch %v", name, b, i, got, want)
		}
	})
}
