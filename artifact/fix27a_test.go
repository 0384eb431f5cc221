package artifact

import "testing"

// fix27a: round 22's mail and chat servers (corpus 2326, 2334, 2336, 2338). Lines from the
// cases themselves, and counter-cases that must not be read as the class.
func TestFix27aClasses(t *testing.T) {
	for _, c := range []struct {
		line string
		f    func(string) bool
		want bool
	}{
		{"(490c021d-debug-ejabberd@prpxmpp06)4>  recon_alloc:memory(allocated_types).", erlangAllocOut, true},
		{"(n@h)5> recon_alloc:fragmentation(max).", erlangAllocOut, true},
		{"(n@h)1> erlang:memory().", erlangAllocOut, true},
		{"[{binary_alloc,1245712},", erlangAllocOut, true},
		{" {ll_alloc,19399136},", erlangAllocOut, true},
		{"[{{ll_alloc,0},", erlangAllocOut, true},
		{"   {mbcs_usage,0.8334587278075255},", erlangAllocOut, true},
		{"   {mbcs_carriers_size,13631648}]},", erlangAllocOut, true},
		{"[{total,52903272},", erlangAllocOut, true},
		// counter-cases: a sentence naming the call, another language's braces
		{"I ran recon_alloc:memory(allocated) and it printed 24908216.", erlangAllocOut, false},
		{"ll_alloc holds 19399136 bytes", erlangAllocOut, false},
		{`{"total": 52903272}`, erlangAllocOut, false},
		{"{foo,12}", erlangAllocOut, false},

		{"then flood deliveries causing the daemon to consume all descriptors as the delivery pipes are kept open ...", statedFDExhausted, true},
		{"nginx ran out of file descriptors last night", statedFDExhausted, true},
		{"The daemon exhausted its fds after 2 hours.", statedFDExhausted, true},
		// counter-cases: a question, advice, a negation, the words without the statement
		{"What happens if the daemon runs out of file descriptors?", statedFDExhausted, false},
		{"You should raise the limit to avoid running out of descriptors", statedFDExhausted, false},
		{"The daemon did not consume all descriptors.", statedFDExhausted, false},
		{"each client holds two descriptors", statedFDExhausted, false},

		{"After some troubleshooting and analysis i found that the **clamd** process fails to start properly due to OOM (out of memory) and the current `ExitOnOOM false` parameter.", statedOOMCause, true},
		{"mysqld crashed because of out of memory", statedOOMCause, true},
		// counter-cases: a condition, a question, an OOM without a failure of a program
		{"if clamd fails due to OOM, supervisord restarts it", statedOOMCause, false},
		{"Did it crash because of OOM?", statedOOMCause, false},
		{"ExitOnOOM true makes clamd exit on OOM", statedOOMCause, false},
		{"the OOM killer is described in the kernel docs", statedOOMCause, false},
	} {
		if got := c.f(c.line); got != c.want {
			t.Errorf("%q: got %v, want %v", c.line, got, c.want)
		}
	}
}

// A descriptor limit stated with its figure is a figure of the domain; a count of users alone
// is not.
func TestFix27aFDFigure(t *testing.T) {
	if !statesDomainFigure("Your system is probably limited to 1024 max open fds per process and you need to raise the limit.") {
		t.Error("the stated 1024 fds limit not read as a figure")
	}
	if statesDomainFigure("it accept only 1012 users connection. The user 1013 can't enter") {
		t.Error("a count of users read as a domain figure")
	}
}
