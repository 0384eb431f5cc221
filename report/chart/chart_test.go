package chart

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; run go test -update and review the diff", name)
	}
}

func TestTimeChartGolden(t *testing.T) {
	start := time.Date(2026, 3, 1, 14, 2, 0, 0, time.UTC)
	var x, free, low []float64
	for i := 0; i <= 300; i += 5 {
		x = append(x, float64(i))
		v := 900 - 3*float64(i)
		if i == 150 {
			v = math.NaN() // a sample without the value: a gap
		}
		free = append(free, v)
		low = append(low, 60)
	}
	c := Chart{ID: "free-normal", Title: "Free memory against watermarks: Normal", YUnit: "MiB", Start: start,
		Series: []Series{{Name: "free", X: x, Y: free}, {Name: "low watermark", X: x, Y: low, Dashed: true}},
		Bands:  []Band{{From: 200, To: 260, Label: "min-free-too-low", Class: "warning"}},
		Marks:  []Mark{{X: 120, Label: "flood start"}}}
	svg := c.SVG()
	golden(t, "time.svg", svg)
	for _, want := range []string{"14:03", "MiB", "flood start", `class="band warning"`, "low watermark", `stroke-dasharray="6 4"`, "M"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// The gap splits the free line into two runs.
	if n := strings.Count(pathOf(svg, "free"), "M"); n != 2 {
		t.Errorf("free line has %d runs, want 2", n)
	}
}

func pathOf(svg, name string) string {
	for _, l := range strings.Split(svg, "\n") {
		if strings.Contains(l, `class="line"`) && strings.Contains(l, "<title>"+name+"</title>") {
			return l
		}
	}
	return ""
}

func TestRowLogChartGolden(t *testing.T) {
	c := Chart{ID: "buddy", Title: "Free blocks per order", YUnit: "blocks", XUnit: "s (rows of buddyinfo @ 1 s)", YLog: true}
	rows := [][]float64{{240, 453, 5072, 4247, 871, 73, 2, 11, 2, 0, 1}, {63, 551, 5075, 4247, 871, 73, 2, 11, 2, 0, 1}, {30, 546, 5078, 4247, 871, 73, 2, 11, 2, 0, 1}, {0, 501, 5078, 4247, 871, 73, 2, 11, 2, 0, 1}}
	for o := 0; o < 11; o++ {
		s := Series{Name: "order " + string(rune('0'+o%10))}
		for r := range rows {
			s.X = append(s.X, float64(r))
			s.Y = append(s.Y, rows[r][o])
		}
		c.Series = append(c.Series, s)
	}
	svg := c.SVG()
	golden(t, "rowlog.svg", svg)
	for _, want := range []string{"(log scale)", ">1<", ">10k<", "rows of buddyinfo"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 950: "950", 1500: "1500", 15000: "15k", 2.5e6: "2.5M", 0.25: "0.25", 3e9: "3G", -20000: "-20k"} {
		if got := FormatValue(v); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestNoDataAndSinglePoint(t *testing.T) {
	c := Chart{Title: "empty", Series: []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{math.NaN(), math.NaN()}}}}
	if c.HasData() {
		t.Error("HasData on NaNs")
	}
	_ = c.SVG() // must not panic or divide by zero
	one := Chart{Title: "one", XUnit: "row", Series: []Series{{Name: "a", X: []float64{0}, Y: []float64{5}}}}
	svg := one.SVG()
	if !strings.Contains(svg, "h0") || strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
		t.Errorf("single point: %s", svg)
	}
}

func FuzzSVG(f *testing.F) {
	f.Add(0.0, 1.0, 2.0, false)
	f.Add(-5.0, 1e300, math.NaN(), true)
	f.Fuzz(func(t *testing.T, a, b, c float64, log bool) {
		ch := Chart{Title: "<&>", YLog: log, XUnit: "row", Series: []Series{{Name: "s", X: []float64{0, a, 2}, Y: []float64{a, b, c}}}, Bands: []Band{{From: b, To: c}}}
		svg := ch.SVG()
		if strings.Contains(svg, "<&>") {
			t.Fatal("unescaped title")
		}
	})
}
