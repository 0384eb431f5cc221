package artifact

import (
	"strings"
	"testing"
)

// fix29c: the OOM killer's ARM backtrace cut above its out_of_memory frame (corpus 2547).
const fix29cCutTrace = "Nov 22 10:21:31 raspberrypi kernel: [58868.244248]  r7:80e04fa8 r6:80e08200 r5:b5e69d18 r4:883dbd00\n" +
	"Nov 22 10:21:31 raspberrypi kernel: [58868.244255] [<8028db58>] (out_of_memory) from [<802da420>] (__alloc_pages_nodemask+0xbe8/0x121c)\n" +
	"Nov 22 10:21:31 raspberrypi kernel: [58868.244259]  r6:80e9b3c8 r5:0000220d r4:00000000\n" +
	"Nov 22 10:21:31 raspberrypi kernel: [58868.244266] [<802d9838>] (__alloc_pages_nodemask) from [<802bfb74>] (__pte_alloc+0x34/0x17c)\n" +
	"Nov 22 10:21:31 raspberrypi kernel: [58868.244279] [<802bfb40>] (__pte_alloc) from [<802c337c>] (handle_mm_fault+0x454/0xc98)\n"

func fix29cKills(text string) int {
	n := 0
	for _, e := range ParseString(text, "t", Options{}).Events {
		if e.OOMKill != nil {
			n++
		}
	}
	return n
}

func TestFix29cCutOOMTrace(t *testing.T) {
	if n := fix29cKills(fix29cCutTrace); n != 1 {
		t.Errorf("cut ARM trace through out_of_memory: %d kills, want 1", n)
	}
	// x86 before 4.x, addresses printed.
	x86 := "[<c0143a2b>] out_of_memory+0x1b2/0x1e0\n[<c0145c1d>] __alloc_pages+0x2d2/0x3f0\n[<c0147e8a>] __do_page_cache_readahead+0x10a/0x230\n"
	if n := fix29cKills(x86); n != 1 {
		t.Errorf("cut x86 trace through out_of_memory: %d kills, want 1", n)
	}
}

func TestFix29cCutOOMTraceCounterCases(t *testing.T) {
	for _, text := range []string{
		// a soft lockup's trace in select_bad_process: out_of_memory is not the first frame
		"[<c0143a00>] (select_bad_process) from [<8028db58>] (out_of_memory+0x1c/0x300)\n[<8028db58>] (out_of_memory) from [<802da420>] (__alloc_pages_nodemask+0xbe8/0x121c)\n",
		// a stale "? " frame proves nothing
		"[<ffffffff8113c8a5>] ? out_of_memory+0xf5/0x150\n[<ffffffff8113d0a5>] __alloc_pages_nodemask+0x2b5/0x360\n",
		// another caller: a sysrq-f style call is not the allocator's
		"[<8028db58>] (out_of_memory) from [<804a1234>] (moom_callback+0x60/0x90)\n[<804a1234>] (moom_callback) from [<80140000>] (process_one_work+0x1f0/0x3c0)\n",
		// a sentence that names the functions
		"The trace showed out_of_memory from __alloc_pages_nodemask, so I think it leaks.\n",
		// a patch mail quoting the frames
		"Subject: [PATCH] mm: oom\n\n [<8028db58>] (out_of_memory) from [<802da420>] (__alloc_pages_nodemask+0xbe8/0x121c)\n [<802d9838>] (__alloc_pages_nodemask) from [<802bfb74>] (__pte_alloc+0x34/0x17c)\n\nSigned-off-by: A <a@b>\n",
	} {
		if n := fix29cKills(text); n != 0 {
			t.Errorf("%q: %d kills, want none", text, n)
		}
	}
	if !strings.Contains(fix29cCutTrace, "out_of_memory") {
		t.Fatal("snippet")
	}
}

// fix29c: Mosquitto's disconnect reason for MOSQ_ERR_NOMEM (corpus 2544).
func TestFix29cMosquittoNoMem(t *testing.T) {
	h12aNamed(t, "# broker error: Client xxx disconnected due to out of memory\n", map[int]string{1: "MOSQ_ERR_NOMEM"})
	h12aNamed(t, "1682222222: Client auto-3F2A disconnected due to out of memory.\n", map[int]string{1: "MOSQ_ERR_NOMEM"})
	for _, text := range []string{
		// a condition, not a record
		"If mosquitto logs Client foo disconnected due to out of memory, raise memory_limit.\n",
		// another phrase: a sentence that goes on after it
		"The client disconnected due to out of memory on the phone, I think.\n",
		// more than one word between "Client" and the reason
		"Client on my phone disconnected due to out of memory\n",
	} {
		h24cNotNamed(t, text, "MOSQ_ERR_NOMEM")
	}
}

// fix29c: the Wi-Fi link's events under wpa_supplicant's and dhcpcd's tags (corpus 2553, 2554).
func TestFix29cWiFiLinkEvents(t *testing.T) {
	h12aNamed(t, "2024-05-13 14:08:15.277 homeassistant wpa_supplicant[517]: wlan0: CTRL-EVENT-REGDOM-CHANGE init=CORE type=WORLD\n", map[int]string{1: "regulatory-domain change"})
	h12aNamed(t, "Sep 23 00:45:50 raspberrypi dhcpcd[475]: wlan0: carrier lost\n", map[int]string{1: "carrier drop"})
	h12aNamed(t, "Sep 23 00:46:01 raspberrypi dhcpcd[475]: wlan0: carrier acquired\n", map[int]string{1: "carrier come back"})
	for _, text := range []string{
		// the same words in a sentence, no daemon's tag
		"After the router changed channel, wlan0: carrier lost and it never came back.\n",
		"I keep seeing CTRL-EVENT-REGDOM-CHANGE init=CORE type=WORLD every 3 seconds.\n",
		// another program's line with the words
		"Sep 23 00:45:50 raspberrypi myscript[99]: wlan0: carrier lost\n",
		// dhcpcd's record goes on after the words: not the carrier line
		"Sep 23 00:45:50 raspberrypi dhcpcd[475]: wlan0: carrier lost detection disabled\n",
	} {
		h24cNotNamed(t, text, "carrier drop")
		h24cNotNamed(t, text, "regulatory-domain")
	}
}
