package diagnose

import (
	"strings"
	"testing"
)

// fix63b: sar's %commit as a column of a table the author made of sar's figures (Markdown,
// or aligned with blanks) judges overcommit-exposed by its highest row.
func TestFix63bSarCommitColumn(t *testing.T) {
	md := "sar -r while the workers ran:\n\n| workers | `kbcommit` | `%commit` |\n| --- | --- | --- |\n" +
		"| 1 | 1614824 | 83.09 |\n| 4 | 4985664 | 256.54 |\n| 8 | 9290428 | 478.04 |\n"
	aligned := "workers    kbcommit    %commit\n1          1614824     83.09\n8          9290428     478.04%\n"
	quoted := strings.ReplaceAll("| "+strings.TrimSuffix(md, "\n"), "\n", "\n| ") + "\n"
	spans := "`| workers | `kbcommit` | `%commit` |`\n`| --- | --- | --- |`\n`| 8 | 9290428 | 478.04 |`\n"
	for _, text := range []string{md, aligned, quoted, spans} {
		res := fired(t, "overcommit-exposed", text)
		if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Title, "478%") {
			t.Errorf("%q: %+v", text, res)
		}
	}
	// Every row within RAM + swap: healthy, and the figure named.
	res := fired(t, "overcommit-exposed", "| run | %commit |\n|---|---|\n| a | 41.2 |\n| b | 88.0 |\n")
	if len(res.Findings) != 0 || !strings.Contains(res.Checked, "%commit") {
		t.Errorf("within backing: %+v", res)
	}
	// Counter-cases: the column's name with no rows of numbers under it (a legend, a
	// row of another table), and the name in a cell that is not the column's.
	for _, text := range []string{
		"| column | meaning |\n|---|---|\n| %commit | kbcommit over RAM + swap, may exceed 100 |\n",
		"| metric | %commit |\n|---|---|\n| what | the share of RAM + swap promised |\n",
		"| %commit above 150 | alert |\n| 200 | 1 |\n",
	} {
		if res := fired(t, "overcommit-exposed", text); len(res.Findings) != 0 || res.NotChecked == "" {
			t.Errorf("%q judged: %+v", text, res)
		}
	}
}
