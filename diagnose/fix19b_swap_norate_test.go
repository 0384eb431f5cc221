package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

func parseText19b(t *testing.T, text string) *model.Timeline {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// swap-under-load without a rate (fix19b): an exhausted swap in a free snapshot and swapping
// stated in the author's words fire a warning that says no rate was read; a swap partly used
// with memory available, a swap merely configured, advice and another machine's swap do not.
func TestFix19bSwapWithoutRate(t *testing.T) {
	fire := map[string]string{
		"free full": "free -m\n              total        used        free      shared  buff/cache   available\n" +
			"Mem:            860         443         243           7         173         357\nSwap:            99          99\n",
		"prose crawl": "It spawns a lot of ffmpeg processes which can eat all system memory and make my system crawl because of the swapping.\n",
		"prose eats":  "This causes all the CPUs to be at 100% all the time, but most importantly it saturates the RAM and finally eat out all the SWAP.\n",
		"prose is":    "During the backup the server is swapping heavily and the web interface times out.\n",
	}
	for name, text := range fire {
		f := mustFire(t, run(t, "swap-under-load", parseText19b(t, text)), Warning)
		if f.Severity != Warning || !evidenceHas(f, "swap-in/out rate", "not in the input") {
			t.Errorf("%s: %+v", name, f)
		}
	}
	quiet := map[string]string{
		"free partly used": "free -m\n              total        used        free      shared  buff/cache   available\n" +
			"Mem:           7821        2100         900          20        4800        5400\nSwap:          2047         600        1447\n",
		"free configured": "free -m\n              total        used        free      shared  buff/cache   available\n" +
			"Mem:           7821        2100         900          20        4800        5400\nSwap:          2047           0        2047\n",
		"advice":     "You should add more swap to prevent swapping from using all the swap.\n",
		"advice2":    "Maybe it is good idea to limit the number of processes in order to prevent swapping on configurations with lower amount of RAM.\n",
		"if":         "If the box starts swapping, the transcode will stall.\n",
		"negated":    "The system never starts swapping, memory is fine.\n",
		"configured": "I have 2 GB of swap configured on the SSD.\n",
		"guide":      "vmstat 1 on a system that is swapping heavily will look like this:\n",
	}
	for name, text := range quiet {
		res := run(t, "swap-under-load", parseText19b(t, text))
		for _, f := range res.Findings {
			if f.Severity >= Warning {
				t.Errorf("%s: fired %+v", name, f)
			}
		}
	}
}

// retransmit-rate: retransmissions stated without a share are read (the text is evidence)
// but judged not checked; the counter-cases read nothing.
func TestFix19bStatedRetransWithoutShare(t *testing.T) {
	tl := parseText19b(t, "Wireshark shows excessive duplicate ack and retrasmission packets. I have checked with multiple ISP same issue.\n")
	if artifact.NothingRead(tl) {
		t.Fatal("the statement was not read")
	}
	mustNotCheck(t, run(t, "retransmit-rate", tl), "without a share")
	for _, text := range []string{
		"If you see lots of retransmissions in Wireshark, check the cable.\n",
		"There are no excessive retransmissions in the capture.\n",
	} {
		if tl := parseText19b(t, text); !artifact.NothingRead(tl) {
			t.Errorf("%q read as evidence", text)
		}
	}
}
