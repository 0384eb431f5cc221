package lazyre

import (
	"slices"
	"testing"
)

func TestLazy(t *testing.T) {
	before := Compiled()
	r := New(`^a(b+)c$`)
	if !slices.Contains(All(), r) {
		t.Fatal("New did not register the expression")
	}
	if Compiled() != before {
		t.Fatal("New compiled the expression")
	}
	if m := r.FindStringSubmatch("abbc"); len(m) != 2 || m[1] != "bb" {
		t.Fatalf("FindStringSubmatch = %q", m)
	}
	if Compiled() != before+1 {
		t.Fatal("first use did not compile the expression")
	}
	if r.Re() != r.Re() {
		t.Fatal("compiled twice")
	}
	if r.MatchString("ac") || !r.MatchString("abc") {
		t.Fatal("MatchString")
	}
}

func TestBadPatternPanicsAtFirstUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic")
		}
	}()
	r.MatchString("x")
}
