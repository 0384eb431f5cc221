package report

import (
	"bytes"
	"strings"
	"testing"

	"headroom/diagnose"
	"headroom/model"
)

// A diagnosis that still carries a change for a key the host's kernel lacks (one not made by
// diagnose.Run, which takes such changes out) gets no command in the markdown summary.
func TestMarkdownNoCommandForAbsentSysctl(t *testing.T) {
	d := diagnose.Diagnosis{Findings: []diagnose.Finding{{ID: "swap-under-load", Severity: diagnose.Warning, Title: "the host swaps",
		Changes: []model.Change{
			{Kind: model.ChangeSysctl, Key: "vm.swappiness", Current: "60", Recommended: "10", Why: "reclaim page cache first"},
			{Kind: model.ChangeSysctl, Key: "net.core.rmem_max", Current: "131071", Recommended: "4194304", Why: "room for the window"},
		}}}}
	for _, c := range []struct {
		kernel  string
		swapCmd bool
	}{{"2.4.20", false}, {"6.1.0", true}, {"", true}} {
		var b bytes.Buffer
		tl := &model.Timeline{Host: model.Host{Kernel: c.kernel}}
		if err := WriteMarkdown(&b, tl, d); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if got := strings.Contains(out, "sysctl -w vm.swappiness="); got != c.swapCmd || strings.Contains(out, "`vm.swappiness`: 60 → 10") != c.swapCmd {
			t.Errorf("kernel %q: sysctl -w vm.swappiness printed = %v, want %v:\n%s", c.kernel, got, c.swapCmd, out)
		}
		if !strings.Contains(out, "sysctl -w net.core.rmem_max=") {
			t.Errorf("kernel %q: the rmem_max command is missing:\n%s", c.kernel, out)
		}
		if !c.swapCmd && !strings.Contains(out, "**not offered** `vm.swappiness`: kernel 2.4.20 has no vm.swappiness") {
			t.Errorf("kernel %q: the reason for no command is missing:\n%s", c.kernel, out)
		}
	}
}
