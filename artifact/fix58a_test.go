package artifact

import "testing"

// Round 53's stated-order classes fixed by fix58a.

// A reply's subject names the thread's title, not this host's failure; the body's
// "order-N allocations" beside the failures counted, in the answer quoted to this author
// ("Can you think ..."), is the host's order. Counter-cases: a reply subject alone, a
// quoted paragraph that does not address the reader, a supposition, and no failure named.
func TestFix58aStatedOrderAllocs(t *testing.T) {
	const head = "From: A <a@b>\nSubject: Re: [Bug #1] order 2 page allocation failures (generic)\n\nToday B wrote:\n\n"
	const q = "> 2. As order-5 allocations are required to succeed, I'm surprised in a\n>    sense that there are only 5 failures. Can you think of what happens?\n\nthe bursts occur all day.\n"
	if orders, _ := allocOrdersModes(head + q); len(orders) != 1 || orders[0] != 5 {
		t.Errorf("stated: orders %v, want [5]", orders)
	}
	for _, s := range []string{
		head + "Any news on this?\n",
		head + "> As order-5 allocations are required to succeed, there are only 5 failures.\n\nthanks\n",
		"If order-5 allocations are used there would be failures.\n",
		"We use order-5 allocations for the rings.\n",
	} {
		if orders, _ := allocOrdersModes(s); len(orders) != 0 {
			t.Errorf("%q: orders %v", s, orders)
		}
	}
}

// The prose naming the requests high-order atomic marks the stated failure atomic; a
// supposition does not.
func TestFix58aStatedAtomic(t *testing.T) {
	const fail = "We see order-5 allocations failures all day on this box.\n\n"
	for text, want := range map[string]bool{
		fail + "High-order atomic allocations of the type you are trying were always a long shot.\n": true,
		fail + "If these were high-order atomic allocations they might fail.\n":                      false,
		fail: false,
	} {
		tl := ParseString(text, "p", Options{})
		var got *bool
		for _, e := range tl.Events {
			if e.AllocFailure != nil {
				got = e.AllocFailure.Atomic
			}
		}
		if (got != nil && *got) != want {
			t.Errorf("%q: atomic %v, want %v", text, got, want)
		}
	}
}
