package artifact

import (
	"testing"

	"headroom/model"
)

// fix40b: round 35's exit-3 texts (corpus 3368, 3369, 3432, 3437), by class.

func fix40bWhys(text string) map[string][2]int {
	tl := ParseString(text, "p", Options{})
	out := map[string][2]int{}
	for _, u := range tl.Unparsed {
		out[u.Why] = [2]int{u.FirstLine, u.LastLine}
	}
	return out
}

// Webmin's dashboard memory line (body_used_cached_total), the reporter's answer to a
// question; a question or a sentence around the figures is not the line.
func TestPanelMemLine(t *testing.T) {
	text := "How much RAM does your system have?\n\n2.48 GiB used /  834.86 MiB cached  / 3.76 GiB total\nJust grabbed from a random point in time.\n"
	if w := fix40bWhys(text); w[whyPanelMemLine] != [2]int{3, 3} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	for _, s := range []string{"Real memory: 1.2 GB used / 4 GB total", "Memory 512 MiB used / 128 MiB cached / 2 GiB total"} {
		if !panelMemLine(s) {
			t.Errorf("%q not named", s)
		}
	}
	for _, s := range []string{
		"is 2.48 GiB used / 3.76 GiB total too much?",
		"I think 2 GiB used / 4 GiB total would be fine for a small VPS",
		"/dev/sda1 20G used / 50G total",
		"3147985 body_used_cached_total",
	} {
		if panelMemLine(s) {
			t.Errorf("%q named as a panel's memory line", s)
		}
	}
}

// A memory dump's string counts: copies in one process's heap, not a memory size; the
// uniq -c rows themselves stay unnamed, and a count outside a dump is not this form.
func TestDumpStringCount(t *testing.T) {
	text := "i dumped all the strings from that file and did a sort and uniq -c for all of those.\n\n" +
		"there are 3147985 occurences of \"body_used_cached_total\" for example in that dump\n\n" +
		"3147985 body_used_cached_total\n 185307 /var/webmin/modules/authentic-theme/real-time-monitoring.json.lock\n"
	w := fix40bWhys(text)
	if w[whyDumpStringCount] != [2]int{3, 3} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	for _, s := range []string{
		"there are 3147985 occurrences of \"foo\" in the log",   // no dump
		"how many occurrences of \"foo\" are in the core dump?", // a question, no count
		"are there 12 copies of 'foo' in the heap dump?",        // a question
		"the dump is 3147985 bytes",                             // a size, another form
	} {
		if dumpStringCount(s) {
			t.Errorf("%q named as a dump's string count", s)
		}
	}
}

// NextcloudPi's ncp-report rows: the swapfile row and the service rows, named; the other
// rows (versions, disk usage, addresses) are not this host's memory or network evidence.
func TestNcpReportRows(t *testing.T) {
	text := "`ncp-report` gives this:\n```\nNextCloudPi version  v0.44.15\ndata disk usage      4.1G/350G\nswapfile             /var/swap\nHTTPD service        up\nRedis service        down\nIP                   192.168.178.29\n```\n"
	w := fix40bWhys(text)
	if w[whyReportSwapfile] != [2]int{5, 5} || w[whyReportService] != [2]int{6, 7} || len(w) != 2 {
		t.Errorf("unread: %v", w)
	}
	for _, s := range []string{"the swapfile /var/swap is 100MB", "swapfile none", "Is the Redis service down?", "Redis service went down after the reboot"} {
		if reportSwapfileRow(s) || reportServiceRow(s) {
			t.Errorf("%q named as a report row", s)
		}
	}
}

// ftgmac100's bits named in words are a stated RX overrun; logged, they are the driver's
// FIFO-overflow records with the interface; negated or hypothetical, neither.
func TestFtgmacStatedAndLogged(t *testing.T) {
	stated := func(text string) bool {
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			if s.Rates[model.RateStatedRxOverrun] > 0 {
				return true
			}
		}
		return false
	}
	const head = "facebook/openbmc · issue #43 · closed · C\n"
	if !stated(head + "# ftgmac error - NO_RXBUF and RPKT_LOST\n\nI get the attached error when I scp a file to the BMC.\n") {
		t.Error("the title's NO_RXBUF not read as a stated overrun")
	}
	for _, s := range []string{
		"We never see NO_RXBUF on this board.\n",
		"If you get NO_RXBUF, raise the ring size.\n",
		"Does NO_RXBUF mean the ring is too small?\n",
	} {
		if stated(head + "# ftgmac question\n\n" + s) {
			t.Errorf("%q read as a stated overrun", s)
		}
	}
	tl := ParseString("[  812.345678] ftgmac100 1e660000.ethernet eth0: [ISR] = 0x200: NO_RXBUF \n[  812.400000] ftgmac100 1e660000.ethernet eth0: [ISR] = 0x300: NO_RXBUF RPKT_LOST \n[  813.000000] ftgmac100 1e660000.ethernet eth0: [ISR] = 0x400: AHB_ERR \n", "p", Options{})
	n := 0.0
	for _, s := range tl.Samples {
		n += s.Rates[model.RateLoggedRxFIFOOverflows]
	}
	found := false
	for _, a := range tl.Artifacts {
		if a.Kind == KindDriverRxFIFO {
			d := a.Data.(map[string]any)
			found = d["records"] == 2 && len(d["devices"].([]string)) == 1 && d["devices"].([]string)[0] == "eth0"
		}
	}
	if n != 2 || !found {
		t.Errorf("logged overruns %v, artifacts %+v", n, tl.Artifacts)
	}
}
