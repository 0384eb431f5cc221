package netlab

import (
	"math/rand/v2"
	"time"
)

// Clock is the delay line's notion of time, injected so the queueing logic is tested
// without root and without sleeping.
type Clock interface {
	Now() time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// WallClock is the real clock (monotonic readings from time.Now).
var WallClock Clock = wallClock{}

// PacketQueue is what a delay line holds packets in. Push is called when a packet leaves one
// namespace; Pop hands it to the other namespace once it is due. Implementations are not
// safe for concurrent use: DelayLine serialises access.
type PacketQueue interface {
	// Push offers a packet that arrived now. It reports false when the packet was dropped
	// (random loss or a full queue); the queue then keeps no reference to p.
	Push(p []byte) bool
	// Pop removes and returns the head packet if it is due at now; ok is false when the
	// queue is empty or the head is not due yet.
	Pop(now time.Time) (p []byte, ok bool)
	// NextDue is when the head packet becomes due; ok is false when the queue is empty.
	NextDue() (due time.Time, ok bool)
	// Len is the number of packets held.
	Len() int
	// Stats returns the counters so far.
	Stats() QueueStats
}

// QueueStats counts what a queue did. Dropped packets are never silent: every drop is
// counted by cause.
type QueueStats struct {
	Enqueued        uint64 `json:"enqueued"`
	Dequeued        uint64 `json:"dequeued"`
	DroppedRandom   uint64 `json:"dropped_random"`
	DroppedFull     uint64 `json:"dropped_full"`
	BytesHeld       uint64 `json:"bytes_held"`
	PeakBytesHeld   uint64 `json:"peak_bytes_held"`
	PeakPacketsHeld int    `json:"peak_packets_held"`
}

// DelayQueueConfig configures a FIFO delay queue.
type DelayQueueConfig struct {
	// Delay is how long each packet is held (the one-way delay).
	Delay time.Duration
	// LossFraction is the fraction of packets dropped at random on arrival, 0 ≤ f < 1.
	LossFraction float64
	// Seed seeds the loss RNG, so a run's drop pattern is reproducible.
	Seed uint64
	// CapacityBytes bounds the bytes held; a packet that would exceed it is dropped at the
	// tail and counted. 0 means DefaultQueueCapacityBytes.
	CapacityBytes uint64
	// CapacityPackets bounds the packets held; 0 means no bound beyond the bytes.
	CapacityPackets int
}

// DefaultQueueCapacityBytes is room for 64 MiB in flight per direction: 4× the bandwidth-delay
// product of 1 Gbit/s × 125 ms (15.6 MB round trip, 7.8 MB per one-way direction), so the
// delay line itself never becomes the bottleneck of the scenarios it serves.
const DefaultQueueCapacityBytes = 64 << 20

type heldPacket struct {
	data []byte
	due  time.Time
}

// DelayQueue is a PacketQueue that holds every packet for the same delay. Because the delay
// is constant, arrival order is due order: a FIFO suffices and nothing is reordered, as on a
// real fixed-length path.
type DelayQueue struct {
	cfg   DelayQueueConfig
	clock Clock
	rng   *rand.Rand
	// ring buffer of held packets
	buf     []heldPacket
	head, n int
	stats   QueueStats
}

// NewDelayQueue returns an empty queue reading time from clock.
func NewDelayQueue(cfg DelayQueueConfig, clock Clock) *DelayQueue {
	if cfg.CapacityBytes == 0 {
		cfg.CapacityBytes = DefaultQueueCapacityBytes
	}
	if cfg.LossFraction < 0 {
		cfg.LossFraction = 0
	}
	if clock == nil {
		clock = WallClock
	}
	return &DelayQueue{
		cfg:   cfg,
		clock: clock,
		rng:   rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		buf:   make([]heldPacket, 64),
	}
}

// Push implements PacketQueue.
func (q *DelayQueue) Push(p []byte) bool {
	if q.cfg.LossFraction > 0 && q.rng.Float64() < q.cfg.LossFraction {
		q.stats.DroppedRandom++
		return false
	}
	size := uint64(len(p))
	if q.stats.BytesHeld+size > q.cfg.CapacityBytes ||
		(q.cfg.CapacityPackets > 0 && q.n >= q.cfg.CapacityPackets) {
		q.stats.DroppedFull++
		return false
	}
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)%len(q.buf)] = heldPacket{data: p, due: q.clock.Now().Add(q.cfg.Delay)}
	q.n++
	q.stats.Enqueued++
	q.stats.BytesHeld += size
	if q.stats.BytesHeld > q.stats.PeakBytesHeld {
		q.stats.PeakBytesHeld = q.stats.BytesHeld
	}
	if q.n > q.stats.PeakPacketsHeld {
		q.stats.PeakPacketsHeld = q.n
	}
	return true
}

func (q *DelayQueue) grow() {
	nb := make([]heldPacket, 2*len(q.buf))
	for i := 0; i < q.n; i++ {
		nb[i] = q.buf[(q.head+i)%len(q.buf)]
	}
	q.buf, q.head = nb, 0
}

// Pop implements PacketQueue.
func (q *DelayQueue) Pop(now time.Time) ([]byte, bool) {
	if q.n == 0 {
		return nil, false
	}
	h := &q.buf[q.head]
	if now.Before(h.due) {
		return nil, false
	}
	p := h.data
	*h = heldPacket{}
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	q.stats.Dequeued++
	q.stats.BytesHeld -= uint64(len(p))
	return p, true
}

// NextDue implements PacketQueue.
func (q *DelayQueue) NextDue() (time.Time, bool) {
	if q.n == 0 {
		return time.Time{}, false
	}
	return q.buf[q.head].due, true
}

// Len implements PacketQueue.
func (q *DelayQueue) Len() int { return q.n }

// Stats implements PacketQueue.
func (q *DelayQueue) Stats() QueueStats { return q.stats }
