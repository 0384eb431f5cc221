package artifact

import (
	"testing"

	"headroom/model"
)

// fix28b: a small host's out-of-memory stated during a named activity (corpus 2444: "was
// killed while in-progress due to the Droplet running out of memory"; corpus 2456: "debian
// initrd loads but goes OOM during boot"), and the conntrack table said to have filled
// without "up" (corpus 2445). Counter-cases: a question, a hypothetical, advice, a negation, a
// possibility, the table's contents.
func TestFix28bStatedOOMActivity(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"The unattanded upgrade was killed while in-progress due to the Droplet running out of memory, and it seems to have left this particular deployment of algo in a broken, unrecoverable state.\n", 1},
		{"I tested other officially listed linux distros and those fail to at deeper stages of the boot process. (Ubuntu LTS 24 hangs during initrd load, debian initrd loads but goes OOM during boot, ..)\n", 1},
		{"The build went OOM halfway through linking on our 1 GB VPS.\n", 1},
		// Counter-cases.
		{"512mb DigitalOcean Droplets have the potential to run out of memory during an unattended upgrade.\n", 0},
		{"Has the upgrade ever been killed while in-progress due to the Droplet running out of memory?\n", 0},
		{"If the initrd goes OOM during boot, try a bigger shape.\n", 0},
		{"To avoid the upgrade being killed due to running out of memory, add a swapfile.\n", 0},
		{"The upgrade was not killed due to the droplet running out of memory; it hit a dpkg lock.\n", 0},
		{"Make sure the initrd never goes OOM during boot.\n", 0},
		{"Does debian go OOM during boot on a 1 GB VM?\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("stated OOM %v, want %v: %q", got, c.want, c.text)
		}
	}
}

func TestFix28bStatedConntrackFilled(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"With the default nf_conntrack_max=262144 and a 120 s UDP stream\ntimeout, the conntrack table filled under load, silently dropping packets.\n", 1},
		{"Last night the nf_conntrack table overflowed and the proxy dropped SYNs.\n", 1},
		// Counter-cases.
		{"Was the conntrack table filled under load?\n", 0},
		{"If the conntrack table filled, the kernel would drop packets.\n", 0},
		{"The conntrack table filled with TIME_WAIT entries but stayed far below nf_conntrack_max.\n", 0},
		{"Raise nf_conntrack_max so that the conntrack table never fills.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedConntrackFull); got != c.want {
			t.Errorf("stated conntrack full %v, want %v: %q", got, c.want, c.text)
		}
	}
}

// fix28b (corpus 2460): a Python shell's psutil memory printout is listed as unread, not "no
// evidence". Counter-cases: a sentence naming the call, an import, another psutil call.
func TestFix28bPsutilMemOut(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{">>> psutil.virtual_memory().used/(1024*1024*1024)", true},
		{"psutil.virtual_memory().available/(1024*1024*1024)", true},
		{"In [3]: psutil.swap_memory()", true},
		{"svmem(total=5000000000, available=1174548480, percent=76.5, used=3823435776, free=210000000)", true},
		// Counter-cases.
		{"psutil.virtual_memory() shows 3.56 GB used, htop shows 16.0Z", false},
		{"I checked with psutil.virtual_memory().used and it is fine", false},
		{">>> import psutil", false},
		{">>> psutil.cpu_percent(interval=1)", false},
	} {
		if got := psutilMemOut(c.line); got != c.want {
			t.Errorf("%q: got %v, want %v", c.line, got, c.want)
		}
	}
}
