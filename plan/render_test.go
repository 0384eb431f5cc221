package plan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRenderers(t *testing.T) {
	p := mustCompute(t, Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 20, MemoryBytes: 8 << 30,
		Arch: "x86_64", KernelVersion: "6.18.44", RateLimitBitsPerSec: 400e6,
		NICs:    []NIC{{Name: "eth0", SpeedMbps: 1000, RxRing: 256, RxRingMax: 4096, DropsSeen: true}},
		Current: map[string]string{"net.ipv4.tcp_rmem": "4096 131072 6291456"}})
	var conf bytes.Buffer
	if err := WriteSysctl(&conf, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# was: 4096 131072 6291456\nnet.ipv4.tcp_rmem = ",
		"#   ethtool -G eth0 rx 4096\n",
		"#   tc qdisc replace dev eth0 root handle 1: htb default 1\n",
		"#   tc class replace dev eth0 parent 1: classid 1:1 htb rate 400mbit ceil 400mbit\n",
	} {
		if !strings.Contains(conf.String(), want) {
			t.Errorf("sysctl.d output lacks %q:\n%s", want, conf.String())
		}
	}
	var text bytes.Buffer
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ethtool eth0 rx", "tc eth0 root htb", "rate 400mbit ceil 400mbit", "What the guides would give", "budget (FITS)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q", want)
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	var back Plan
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Settings) != len(p.Settings) || back.Budget != p.Budget {
		t.Errorf("json round trip: %v, %d settings", err, len(back.Settings))
	}
}
