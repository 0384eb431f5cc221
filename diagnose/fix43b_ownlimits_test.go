package diagnose

import "testing"

// fix43b: a program's own limit or failure, named unread by the artifact readers
// (unreadjobworker.go Odoo's pool, unreadruntimeoom.go V8's wasm memory, unreadownend.go an
// OutOfMemoryError's detail and a told "Killed"), decides no rule: no finding at all, and
// oom-kill, overcommit-exposed and listen-overflow are not checked or quiet.
func TestFix43bOwnLimitsNoFinding(t *testing.T) {
	for name, text := range map[string]string{
		"odoo pool":   "Mar 30 07:15:08 odoopd02 odoo14[5203]: 2022-03-30 07:15:08,528 5203 DEBUG ? odoo.sql_db: ConnectionPool(used=25/count=25/max=25) Create new connection\n",
		"wasm":        "outline_1   | RangeError: WebAssembly.instantiate(): Out of memory: wasm memory\noutline-prod_outline_1 exited with code 1\n",
		"jvm detail":  "Aug 04, 2020 9:52:10 AM io.gapi.emulators.netty.HttpHandler$1 onError\nINFO: Exception when handling request: Java heap space\n",
		"killed told": "When executing the command: bench --site {site} backup --with-files it returns <killed> and no backup done.\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.Unparsed) == 0 {
			t.Errorf("%s: nothing named unread", name)
		}
		d := Run(tl, nil)
		for _, f := range d.Findings {
			t.Errorf("%s: finding %s (%s) %q from a program's own line", name, f.ID, f.Severity, f.Title)
		}
	}
}
