// Package docs embeds the rule pages (docs/rules/ID.md) so that `headroom explain ID` works
// from a single binary, and so a test can check that every registered rule has its page.
package docs

import (
	"embed"
	"io/fs"
)

//go:embed rules/*.md
var rules embed.FS

// Rule returns the page of a rule, or fs.ErrNotExist.
func Rule(id string) ([]byte, error) { return fs.ReadFile(rules, "rules/"+id+".md") }

// RuleIDs lists the ids that have a page.
func RuleIDs() ([]string, error) {
	ents, err := fs.ReadDir(rules, "rules")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		n := e.Name()
		if len(n) > 3 && n[len(n)-3:] == ".md" {
			ids = append(ids, n[:len(n)-3])
		}
	}
	return ids, nil
}
