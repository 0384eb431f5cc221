package kernel

import (
	"slices"
	"testing"
)

// The one-pass reader of a recording's counters (unmarshalPlain) must read exactly what the
// token decoder reads, and leave to it everything else.
func FuzzCountersJSON(f *testing.F) {
	for _, s := range []string{`{}`, ` { "a" : 1 , "b":-2}`, `{"MemTotal":24684084,"Active(anon)":1628}`,
		`{"a":1,"a":2}`, `{"a":01}`, `{"a":-0}`, `{"a":-01}`, `{"a":1.5}`, `{"a":1e3}`, `{"a\u0062":1}`,
		`{"é":1}`, `{"a":9223372036854775807}`, `{"a":9223372036854775808}`, `null`, `{"a":1,}`,
		`{"a":1}x`, `{"a" 1}`, `{"a":"1"}`, `{"a":-}`, `[1]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var plain, tokens Counters
		ok := plain.unmarshalPlain(data)
		err := tokens.unmarshalTokens(data)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("%q: read in one pass, but the token decoder says %v", data, err)
		}
		var vp, vt []int64
		for i := 0; i < plain.Len(); i++ {
			_, v := plain.At(i)
			vp = append(vp, v)
		}
		for i := 0; i < tokens.Len(); i++ {
			_, v := tokens.At(i)
			vt = append(vt, v)
		}
		if !slices.Equal(plain.Names(), tokens.Names()) || !slices.Equal(vp, vt) {
			t.Fatalf("%q: one pass %v %v, tokens %v %v", data, plain.Names(), vp, tokens.Names(), vt)
		}
	})
}

func TestCountersJSONPlainPath(t *testing.T) {
	var c Counters
	if !c.unmarshalPlain([]byte(`{"nr_free_pages":5058,"pgfault":-1}`)) {
		t.Fatal("the recorder's own form was not read in one pass")
	}
	if v, _ := c.Get("pgfault"); v != -1 || c.Len() != 2 {
		t.Fatalf("read %v", c.Names())
	}
	for _, s := range []string{`{"a":1.5}`, `{"a\u0062":1}`, `null`, `{"a":01}`} {
		if c.unmarshalPlain([]byte(s)) {
			t.Errorf("%s read in one pass; it is the token decoder's", s)
		}
	}
}
