package kernel

import "testing"

func TestWithValues(t *testing.T) {
	var c Counters
	c.Set("a", 1)
	c.Set("b", 2)
	w, ok := c.WithValues([]int64{10, 20})
	if !ok {
		t.Fatal("same length refused")
	}
	if v, _ := w.Get("b"); v != 20 {
		t.Errorf("b = %d, want 20", v)
	}
	if v, _ := c.Get("b"); v != 2 {
		t.Errorf("template changed: b = %d", v)
	}
	if _, ok := w.Get("c"); ok {
		t.Error("absent name present")
	}
	if _, ok := c.WithValues([]int64{1}); ok {
		t.Error("a short value list was accepted")
	}
}
