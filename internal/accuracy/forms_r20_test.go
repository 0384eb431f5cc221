package main

// Round 20 (g94–g97): losses of its cases under a form that are limits of the form.
func init() {
	// 2203: "I checked the command "dmesg" and it said "TCP: ... Possible SYN flooding on port
	// 1883 ..."" in one long sentence; wrapped at 72 the sentence's subject ("I") ends line 3,
	// its verb and the message's start line 4, the rest of the message line 5.
	formsKnownLimits["wrap-prose-72 2203-mosquitto-2094-2021-dmesg-possible-syn-flooding-port-1883-6500-connections"] = limitMessageInWrappedProse
	// 2170: the log lines print "table full (16384), dropping packet", a count no kernel's
	// nf_conntrack prints (a vendor's or the author's edit), so the case's conntrack-full comes
	// from its title ("# kernel: nf_conntrack: table full ..."); the form makes that title a
	// code line.
	formsKnownLimits["inline-code-lines 2170-cloudflarespeedtest-247-2022-openwrt-ipv6-speedtest-nf-conntrack-table-full-16384-ratelimit-1126"] = limitTitleOnlyInlineCode
}

const limitTitleOnlyInlineCode = "the case's evidence of the failure is its title (its log lines carry a form no kernel prints); inline code around every line makes the title a code span, which is rightly not read as a title a person wrote"
