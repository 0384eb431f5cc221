package lab

import (
	"fmt"
	"sort"
	"time"

	"headroom/lab/netlab"
)

// Params is one case of a scenario: the link, the workload and the host the budget is for.
type Params struct {
	RateBitsPerSec    uint64
	RTT               time.Duration
	Streams           int
	Warmup, Measure   time.Duration
	CongestionControl string // "" = the namespace default after the settings are applied
	SndBufBytes       int    // 0 = autotuning
	RcvBufBytes       int    // 0 = autotuning
	LossFraction      float64
	MemoryBytes       int64 // RAM the plan and the budget assume; 0 = this machine's MemTotal
	Shaper            netlab.Shaper
	Delay             netlab.DelayBackend
}

// OneWayDelay is the delay applied in each direction: half the RTT. The delay line adds
// about 1 ms of its own per round trip, which each run measures and reports.
func (p Params) OneWayDelay() time.Duration { return p.RTT / 2 }

// Overrides replace a scenario's defaults; zero fields keep them. A set Rate, RTT or Streams
// collapses that dimension of the scenario's matrix to the one value.
type Overrides struct {
	RateBitsPerSec    uint64
	RTT               time.Duration
	Streams           int
	Warmup, Measure   time.Duration
	CongestionControl string
	SndBufBytes       int
	RcvBufBytes       int
	LossFraction      float64
	MemoryBytes       int64
	Shaper            netlab.Shaper
	Delay             netlab.DelayBackend
}

// Scenario is a topology plus a matrix of cases. The runner builds the topology fresh for
// every case, applies the settings to every host, and runs the bulk workload from the
// sender to the receiver.
type Scenario struct {
	Name    string
	Summary string
	// Rates, RTTs and Streams span the default matrix; every other field of Base applies to
	// every case.
	Rates   []uint64
	RTTs    []time.Duration
	Streams []int
	Base    Params
	// Build creates the hosts and links of one case in l.
	Build func(l *netlab.Lab, p Params) (*Topology, error)
	// Failure, when set, makes this a failure scenario (scenario_failure.go): it reproduces a
	// failure, runs doctor live against it and measures a fix, instead of comparing settings
	// sets over a matrix; Rates, RTTs, Streams, Base and Build are then unused.
	Failure *Failure
	// Guest, when set, makes this a guest scenario (guest.go): it runs inside QEMU guests of
	// the kernels lab/vm boots (`lab run NAME --kernel K`); every other field but Name and
	// Summary is unused.
	Guest *GuestScenario
}

// Topology is what a scenario's Build hands the runner.
type Topology struct {
	Sender, Receiver *netlab.Host
	Link             *netlab.Link // the path whose far end is Receiver
	Hosts            []*netlab.Host
}

var scenarios = map[string]*Scenario{}

// register adds a scenario; each scenario file calls it from init.
func register(s *Scenario) {
	if _, dup := scenarios[s.Name]; dup {
		panic("lab: scenario registered twice: " + s.Name)
	}
	scenarios[s.Name] = s
}

// Scenarios lists the registered scenarios by name.
func Scenarios() []*Scenario {
	out := make([]*Scenario, 0, len(scenarios))
	for _, s := range scenarios {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupScenario finds a scenario by name.
func LookupScenario(name string) (*Scenario, error) {
	s, ok := scenarios[name]
	if !ok {
		names := make([]string, 0, len(scenarios))
		for n := range scenarios {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("lab: no scenario %q (have %v)", name, names)
	}
	return s, nil
}

// Cases expands the scenario's matrix with the overrides applied, rates outermost.
func (s *Scenario) Cases(o Overrides) ([]Params, error) {
	if s.Failure != nil {
		return nil, fmt.Errorf("lab: %s is a failure scenario: it has no matrix of cases (run it with `headroom lab run %s`)", s.Name, s.Name)
	}
	rates, rtts, streams := s.Rates, s.RTTs, s.Streams
	if o.RateBitsPerSec > 0 {
		rates = []uint64{o.RateBitsPerSec}
	}
	if o.RTT > 0 {
		rtts = []time.Duration{o.RTT}
	}
	if o.Streams > 0 {
		streams = []int{o.Streams}
	}
	if o.LossFraction < 0 || o.LossFraction >= 1 {
		return nil, fmt.Errorf("lab: loss fraction %v outside [0, 1)", o.LossFraction)
	}
	var out []Params
	for _, r := range rates {
		for _, rtt := range rtts {
			for _, n := range streams {
				p := s.Base
				p.RateBitsPerSec, p.RTT, p.Streams = r, rtt, n
				if o.Warmup > 0 {
					p.Warmup = o.Warmup
				}
				if o.Measure > 0 {
					p.Measure = o.Measure
				}
				if o.CongestionControl != "" {
					p.CongestionControl = o.CongestionControl
				}
				if o.SndBufBytes > 0 {
					p.SndBufBytes = o.SndBufBytes
				}
				if o.RcvBufBytes > 0 {
					p.RcvBufBytes = o.RcvBufBytes
				}
				if o.LossFraction > 0 {
					p.LossFraction = o.LossFraction
				}
				if o.MemoryBytes > 0 {
					p.MemoryBytes = o.MemoryBytes
				}
				if o.Shaper != "" {
					p.Shaper = o.Shaper
				}
				if o.Delay != "" {
					p.Delay = o.Delay
				}
				if p.RateBitsPerSec == 0 || p.RTT <= 0 || p.Streams <= 0 {
					return nil, fmt.Errorf("lab: %s: case needs a rate, an RTT and streams (got %d bit/s, %v, %d)", s.Name, p.RateBitsPerSec, p.RTT, p.Streams)
				}
				out = append(out, p)
			}
		}
	}
	return out, nil
}
