package uniq

import (
	"reflect"
	"testing"
)

func TestStable(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{}, nil},
		{[]string{"a"}, []string{"a"}},
		{[]string{"b", "a", "b", "c", "a"}, []string{"b", "a", "c"}},
	} {
		in := append([]string(nil), c.in...)
		if got := Stable(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Stable(%q) = %q, want %q", c.in, got, c.want)
		}
		if !reflect.DeepEqual(in, append([]string(nil), c.in...)) {
			t.Errorf("Stable changed its input %q", in)
		}
	}
}
