package diagnose

import "headroom/model"

// Changes are the findings' changes in finding order, each naming the rule that proposed
// it (what `headroom tune` works on without --from).
func (d Diagnosis) Changes() []model.Change {
	var changes []model.Change
	for _, f := range d.Findings {
		for _, c := range f.Changes {
			if c.Rule == "" {
				c.Rule = f.ID
			}
			changes = append(changes, c)
		}
	}
	return changes
}
