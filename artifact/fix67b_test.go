package artifact

import (
	"strings"
	"testing"
)

// g272 (bcc's softirqslower example): the slow softirqs are read, the longest of each
// softirq and stage kept, and "[...]" ends the run; a header of another tool is not taken.
func TestFix67bSoftirqSlower(t *testing.T) {
	text := "TIME     STAGE                SOFTIRQ  LAT(us)        CPU    COMM\n" +
		"14:41:43 irq(hard) to softirq net_rx   50223          0      cat\n" +
		"14:41:43 irq(hard) to softirq tasklet  50374          0      cat\n" +
		"14:41:43 softirq runtime      net_rx   12001          1      kworker/1:2\n" +
		"14:42:11 irq(hard) to softirq net_rx   95140          0      cat\n" +
		"[...]\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tr *SoftirqSlowTrace
	for _, a := range tl.Artifacts {
		if v, ok := a.Data.(*SoftirqSlowTrace); ok {
			tr = v
		}
	}
	if tr == nil || tr.Events != 4 || len(tr.Longest) != 3 {
		t.Fatalf("trace: %+v", tr)
	}
	top := tr.Longest[0]
	if top.Softirq != "net_rx" || top.Stage != "irq(hard) to softirq" || top.LatUS != 95140 || top.Count != 2 || top.CPU != 0 {
		t.Errorf("longest: %+v", top)
	}
	if r := tr.Longest[2]; r.Stage != "softirq runtime" || r.Comm != "kworker/1:2" || r.CPU != 1 {
		t.Errorf("runtime row: %+v", r)
	}
	// softirqs' (bcc) summary table is another tool: not this one's header.
	if isSoftirqSlowerHeader("", "SOFTIRQ          TOTAL_usecs") {
		t.Error("softirqs' header taken")
	}
}
