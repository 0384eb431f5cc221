package main

// Round 18 (g86–g89): losses of its cases under a form that are limits of the form, not of
// the reading (kept apart from the table in forms_test.go so that its alignment does not move).

func init() {
	// 2007's `ss -ltnp` rows (Recv-Q 10 of a backlog of 10) joined with `ss -s` and the prose:
	// the columns the one line no longer pairs with their header.
}
