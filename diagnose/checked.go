package diagnose

// NothingChecked reports whether no rule could judge the input: no finding, and no rule
// that had its data and found it healthy. Such a diagnosis is not a clean bill of health
// ("absent is not zero"): `free -m` pasted alone is read, but its table in MiB without the
// flag that says so gives no rule a figure, and the report said "no problem found", exit 0,
// with 0 of 44 rules checked (issue 30 item 9).
func (d Diagnosis) NothingChecked() bool {
	if len(d.Findings) > 0 {
		return false
	}
	for _, c := range d.Checks {
		if c.Status == StatusOK {
			return false
		}
	}
	return true
}
