// Package diagnose holds the rule registry and one file per pathology. A rule is a pure
// function from a model.Timeline to a Result: findings with their evidence and changes, or
// "not checked" with what was missing. Rules never write to the host and never know whether
// their numbers came from a live host, a recording, a pasted text or the lab.
package diagnose
