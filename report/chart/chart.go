// Package chart draws small, dependency-free SVG line charts for the HTML report: a time
// (or row) axis, a linear or logarithmic value axis with its unit, a legend, shaded
// intervals (findings, phases) and vertical markers. Output is deterministic (fixed number
// formatting, no randomness), so it is golden-tested.
package chart

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"time"
)

// Series is one line. Y values that are NaN are gaps (the source did not have the value).
type Series struct {
	Name   string
	X, Y   []float64
	Dashed bool   // reference lines: watermarks, limits
	Color  string // CSS color; "" takes the next of the palette
}

// Band is a shaded interval of the x axis.
type Band struct {
	From, To float64
	Label    string
	Class    string // "critical", "warning", "info" or "phase": picks the fill
}

// Mark is a vertical line at X with a label: a phase marker.
type Mark struct {
	X     float64
	Label string
}

// Chart is one chart. X values are seconds from Start when Start is set (the axis is then
// labelled with clock times in Start's zone), or plain numbers in XUnit otherwise.
type Chart struct {
	ID     string // element id, for links and tests
	Title  string
	YUnit  string // "MiB", "pages/s", "%": printed on the axis
	XUnit  string // used when Start is zero: "row", "s"
	Start  time.Time
	YLog   bool // log10 axis; values ≤ 0 are drawn on the bottom edge
	Series []Series
	Bands  []Band
	Marks  []Mark
	Width  int // 0: 880
	Height int // plot height, 0: 200
}

// palette is colour-blind-safe (Okabe-Ito, then darker tones).
var palette = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd"}

var bandFill = map[string]string{"critical": "#d62728", "warning": "#ff7f0e", "info": "#1f77b4", "phase": "#7f7f7f"}

const (
	marginLeft  = 72
	marginRight = 16
	marginTop   = 30
	axisBelow   = 40 // tick labels and the axis title under the plot
	legendRow   = 18
	legendItemW = 210
)

// HasData reports whether any series has a finite value.
func (c *Chart) HasData() bool {
	for _, s := range c.Series {
		for _, y := range s.Y {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				return true
			}
		}
	}
	return false
}

// SVG renders the chart.
func (c *Chart) SVG() string {
	W, PH := c.Width, c.Height
	if W <= 0 {
		W = 880
	}
	if PH <= 0 {
		PH = 200
	}
	PW := W - marginLeft - marginRight
	perRow := max(1, PW/legendItemW)
	rows := (len(c.Series) + perRow - 1) / perRow
	H := marginTop + PH + axisBelow + rows*legendRow + 6

	xmin, xmax := c.xRange()
	ymin, ymax := c.yRange()
	sx := func(x float64) float64 { return float64(marginLeft) + (x-xmin)/(xmax-xmin)*float64(PW) }
	sy := func(y float64) float64 {
		if c.YLog {
			if y <= 0 {
				y = ymin
			}
			return float64(marginTop) + (1-(math.Log10(y)-math.Log10(ymin))/(math.Log10(ymax)-math.Log10(ymin)))*float64(PH)
		}
		return float64(marginTop) + (1-(y-ymin)/(ymax-ymin))*float64(PH)
	}
	clampY := func(v float64) float64 { return math.Max(float64(marginTop), math.Min(float64(marginTop+PH), v)) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 %d %d" width="%d" height="%d"`, W, H, W, H)
	if c.ID != "" {
		fmt.Fprintf(&b, ` id="%s"`, esc(c.ID))
	}
	b.WriteString(">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(c.Title))
	fmt.Fprintf(&b, `<text class="ct" x="%d" y="18">%s</text>`+"\n", marginLeft, esc(c.Title))
	// Bands first, so lines draw over them.
	for k, bd := range c.Bands {
		x0, x1 := math.Max(sx(bd.From), float64(marginLeft)), math.Min(sx(bd.To), float64(marginLeft+PW))
		if x1 < x0 {
			continue
		}
		if x1-x0 < 2 {
			x1 = x0 + 2
		}
		fill := bandFill[bd.Class]
		if fill == "" {
			fill = bandFill["phase"]
		}
		fmt.Fprintf(&b, `<rect class="band %s" x="%s" y="%d" width="%s" height="%d" fill="%s" fill-opacity="0.13"><title>%s</title></rect>`+"\n",
			esc(bd.Class), f1(x0), marginTop, f1(x1-x0), PH, fill, esc(bd.Label))
		fmt.Fprintf(&b, `<text class="bl" x="%s" y="%d" fill="%s">%s</text>`+"\n", f1(x0+3), marginTop+PH-4-11*(k%8), fill, esc(clip(bd.Label, int((x1-x0)/6.5))))
	}
	// Grid and y ticks.
	for _, t := range c.yTicks(ymin, ymax) {
		y := sy(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/>`, marginLeft, f1(y), marginLeft+PW, f1(y))
		fmt.Fprintf(&b, `<text class="yt" x="%d" y="%s">%s</text>`+"\n", marginLeft-6, f1(y+4), esc(FormatValue(t)))
	}
	// X ticks.
	for _, t := range c.xTicks(xmin, xmax) {
		x := sx(t.v)
		fmt.Fprintf(&b, `<line class="tick" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x), marginTop+PH, f1(x), marginTop+PH+4)
		fmt.Fprintf(&b, `<text class="xt" x="%s" y="%d">%s</text>`+"\n", f1(x), marginTop+PH+16, esc(t.label))
	}
	// Axes and their titles.
	fmt.Fprintf(&b, `<path class="axis" d="M%d %dV%dH%d"/>`+"\n", marginLeft, marginTop, marginTop+PH, marginLeft+PW)
	yTitle := c.YUnit
	if c.YLog {
		yTitle += " (log scale)"
	}
	fmt.Fprintf(&b, `<text class="at" transform="translate(14 %d) rotate(-90)">%s</text>`+"\n", marginTop+PH/2, esc(yTitle))
	fmt.Fprintf(&b, `<text class="at" x="%d" y="%d">%s</text>`+"\n", marginLeft+PW/2, marginTop+PH+34, esc(c.xTitle()))
	// Series.
	for i, s := range c.Series {
		col := s.Color
		if col == "" {
			col = palette[i%len(palette)]
		}
		d := pathData(s, sx, func(y float64) float64 { return clampY(sy(y)) })
		if d == "" {
			continue
		}
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(&b, `<path class="line" d="%s" stroke="%s"%s><title>%s</title></path>`+"\n", d, col, dash, esc(s.Name))
	}
	// Markers over everything.
	for _, m := range c.Marks {
		x := sx(m.X)
		if x < float64(marginLeft) || x > float64(marginLeft+PW) {
			continue
		}
		fmt.Fprintf(&b, `<line class="mark" x1="%s" y1="%d" x2="%s" y2="%d"/>`, f1(x), marginTop, f1(x), marginTop+PH)
		fmt.Fprintf(&b, `<text class="ml" x="%s" y="%d">%s</text>`+"\n", f1(x+3), marginTop+10, esc(clip(m.Label, 28)))
	}
	// Legend.
	ly := marginTop + PH + axisBelow + 8
	for i, s := range c.Series {
		col := s.Color
		if col == "" {
			col = palette[i%len(palette)]
		}
		x := marginLeft + (i%perRow)*legendItemW
		y := ly + (i/perRow)*legendRow
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(&b, `<line class="lg" x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s"%s/><text class="lt" x="%d" y="%d">%s</text>`+"\n",
			x, y, x+22, y, col, dash, x+28, y+4, esc(clip(s.Name, 30)))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// pathData draws a series as connected runs; a NaN breaks the line. A run of one point is
// drawn as a dot (a zero-length segment with round caps).
func pathData(s Series, sx, sy func(float64) float64) string {
	var b strings.Builder
	pen := false
	n := min(len(s.X), len(s.Y))
	for i := 0; i < n; i++ {
		y := s.Y[i]
		if math.IsNaN(y) || math.IsInf(y, 0) || math.IsNaN(s.X[i]) {
			pen = false
			continue
		}
		cmd := "L"
		if !pen {
			cmd = "M"
		}
		fmt.Fprintf(&b, "%s%s %s", cmd, f1(sx(s.X[i])), f1(sy(y)))
		if !pen && (i+1 >= n || math.IsNaN(s.Y[i+1])) {
			b.WriteString("h0")
		}
		pen = true
	}
	return b.String()
}

func (c *Chart) xRange() (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for i, x := range s.X {
			if i < len(s.Y) && !math.IsNaN(s.Y[i]) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	for _, bd := range c.Bands {
		lo, hi = math.Min(lo, bd.From), math.Max(hi, bd.To)
	}
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

func (c *Chart) yRange() (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	minPos := math.Inf(1)
	for _, s := range c.Series {
		for _, y := range s.Y {
			if math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			lo, hi = math.Min(lo, y), math.Max(hi, y)
			if y > 0 {
				minPos = math.Min(minPos, y)
			}
		}
	}
	if c.YLog {
		if math.IsInf(minPos, 1) {
			return 1, 10
		}
		a := math.Pow(10, math.Floor(math.Log10(minPos)))
		b := math.Pow(10, math.Ceil(math.Log10(hi)))
		if b <= a {
			b = a * 10
		}
		return a, b
	}
	if math.IsInf(lo, 1) {
		return 0, 1
	}
	lo = math.Min(lo, 0) // values are amounts and rates: start at zero
	if hi <= lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 4)
	return math.Floor(lo/step) * step, math.Ceil(hi/step) * step
}

func (c *Chart) yTicks(lo, hi float64) []float64 {
	var out []float64
	if c.YLog {
		for v := lo; v <= hi*1.0001 && len(out) < 40; v *= 10 {
			out = append(out, v)
		}
		return out
	}
	step := niceStep((hi - lo) / 4)
	for v := lo; v <= hi+step/1e6 && len(out) < 40; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

type tick struct {
	v     float64
	label string
}

var timeSteps = []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400}

func (c *Chart) xTicks(lo, hi float64) []tick {
	var out []tick
	if c.Start.IsZero() {
		step := niceStep((hi - lo) / 8)
		if step < 1 {
			step = 1 // rows and whole seconds
		}
		for v := math.Ceil(lo/step) * step; v <= hi+step/1e6 && len(out) < 40; v += step {
			out = append(out, tick{v, FormatValue(v)})
		}
		return out
	}
	step := timeSteps[len(timeSteps)-1]
	for _, s := range timeSteps {
		if (hi-lo)/s <= 8 {
			step = s
			break
		}
	}
	// Ticks at round clock times.
	base := float64(c.Start.Unix()%int64(step)) + float64(c.Start.Nanosecond())/1e9
	first := math.Ceil((lo+base)/step)*step - base
	layout := "15:04:05"
	if step >= 60 {
		layout = "15:04"
	}
	for v := first; v <= hi+1e-6 && len(out) < 40; v += step {
		out = append(out, tick{v, c.Start.Add(time.Duration(v * float64(time.Second))).Format(layout)})
	}
	return out
}

func (c *Chart) xTitle() string {
	if c.Start.IsZero() {
		return c.XUnit
	}
	name, off := c.Start.Zone()
	if name == "" {
		name = fmt.Sprintf("UTC%+03d:%02d", off/3600, (off%3600)/60)
	}
	return "time (" + name + "), from " + c.Start.Format("2006-01-02 15:04:05")
}

// FormatValue prints an axis value compactly: 950, 1.5k, 12M, 0.25.
func FormatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 1e9:
		return trim(v/1e9) + "G"
	case a >= 1e6:
		return trim(v/1e6) + "M"
	case a >= 1e4:
		return trim(v/1e3) + "k"
	}
	return trim(v)
}

func trim(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func esc(s string) string { return html.EscapeString(s) }

func clip(s string, n int) string {
	r := []rune(s)
	if n < 1 {
		return ""
	}
	if len(r) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// Style is the CSS the charts' classes need; the HTML report includes it once.
const Style = `svg.chart{font:11px system-ui,sans-serif;background:#fff;max-width:100%;height:auto}
svg.chart .ct{font-weight:600;font-size:13px}
svg.chart .grid{stroke:#e5e5e5}
svg.chart .tick,svg.chart .axis{stroke:#555;fill:none}
svg.chart .yt{text-anchor:end;fill:#333}
svg.chart .xt{text-anchor:middle;fill:#333}
svg.chart .at{text-anchor:middle;fill:#555}
svg.chart .line{fill:none;stroke-width:1.6;stroke-linejoin:round;stroke-linecap:round}
svg.chart .lg{stroke-width:2.5}
svg.chart .mark{stroke:#333;stroke-dasharray:3 3}
svg.chart .ml{fill:#333;font-size:10px}
svg.chart .bl{font-size:10px}
`
