package lab

import (
	"time"

	"headroom/lab/netlab"
)

// long-fat-pipe is seed 004's Chicago–CERN path: 125 ms RTT at 100 Mbit/s and 1 Gbit/s,
// one stream and eight. Its bandwidth-delay product is 1.56 MB at 100 Mbit/s and 15.6 MB at
// 1 Gbit/s, so a single stream is limited by its buffers long before the link: the seed's
// 1 MiB / 128 KiB maxima hold one stream to a few Mbit/s, and this kernel's own 4 MiB
// tcp_wmem maximum holds it under 300 Mbit/s at 1 Gbit/s.
//
// Two namespaces, "a" (sender) and "b" (receiver), joined by one link carrying the delay
// (netem when the kernel has it, else the TUN delay line) and shaped to the rate in both
// directions. No global sysctl is needed: tcp_rmem, tcp_wmem and the congestion control are
// per namespace.
func init() {
	register(&Scenario{
		Name:    "long-fat-pipe",
		Summary: "Fermilab's Chicago–CERN path: 125 ms RTT, 100 Mbit/s and 1 Gbit/s, 1 and 8 streams",
		Rates:   []uint64{100e6, 1e9},
		RTTs:    []time.Duration{125 * time.Millisecond},
		Streams: []int{1, 8},
		Base: Params{
			// 3 s of warm-up covers slow start to 1 Gbit/s at 125 ms (about 1.4 s) and the
			// receive-window growth behind it; 7 s of measurement is 56 round trips.
			Warmup:  3 * time.Second,
			Measure: 7 * time.Second,
			Shaper:  netlab.ShaperHTB,
			Delay:   netlab.DelayAuto,
		},
		Build: func(l *netlab.Lab, p Params) (*Topology, error) {
			a, err := l.AddHost("a")
			if err != nil {
				return nil, err
			}
			b, err := l.AddHost("b")
			if err != nil {
				return nil, err
			}
			lk, err := l.Connect(a, b, netlab.LinkSpec{
				RateBitsPerSec: p.RateBitsPerSec,
				Shaper:         p.Shaper,
				OneWayDelay:    p.OneWayDelay(),
				LossFraction:   p.LossFraction,
				Delay:          p.Delay,
				Seed:           1,
			})
			if err != nil {
				return nil, err
			}
			return &Topology{Sender: a, Receiver: b, Link: lk, Hosts: []*netlab.Host{a, b}}, nil
		},
	})
}
