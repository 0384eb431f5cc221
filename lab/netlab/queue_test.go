package netlab

import (
	"math"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newFakeClock() *fakeClock { return &fakeClock{t: time.Unix(1_000_000, 0)} }

func TestDelayQueueHoldsForDelayInFIFOOrder(t *testing.T) {
	clk := newFakeClock()
	q := NewDelayQueue(DelayQueueConfig{Delay: 62500 * time.Microsecond}, clk)
	for i := 0; i < 5; i++ {
		if !q.Push([]byte{byte(i)}) {
			t.Fatalf("push %d dropped with no loss configured", i)
		}
		clk.advance(time.Millisecond)
	}
	// Now = start + 5 ms: nothing is due before start + 62.5 ms.
	if _, ok := q.Pop(clk.Now()); ok {
		t.Fatal("packet released before its hold time")
	}
	due, ok := q.NextDue()
	if !ok || due != time.Unix(1_000_000, 0).Add(62500*time.Microsecond) {
		t.Fatalf("NextDue = %v, %v; want start+62.5ms", due, ok)
	}
	clk.t = due.Add(-time.Nanosecond)
	if _, ok := q.Pop(clk.Now()); ok {
		t.Fatal("packet released 1 ns early")
	}
	clk.t = due
	p, ok := q.Pop(clk.Now())
	if !ok || p[0] != 0 {
		t.Fatalf("Pop at due = %v, %v; want packet 0", p, ok)
	}
	if _, ok := q.Pop(clk.Now()); ok {
		t.Fatal("second packet released before its own hold time")
	}
	clk.advance(10 * time.Millisecond)
	for want := 1; want < 5; want++ {
		p, ok := q.Pop(clk.Now())
		if !ok || int(p[0]) != want {
			t.Fatalf("Pop = %v, %v; want packet %d (FIFO order)", p, ok, want)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("Len = %d after draining", q.Len())
	}
	st := q.Stats()
	if st.Enqueued != 5 || st.Dequeued != 5 || st.BytesHeld != 0 || st.PeakPacketsHeld != 5 || st.PeakBytesHeld != 5 {
		t.Fatalf("stats = %+v", st)
	}
}

func TestDelayQueueTailDropCounted(t *testing.T) {
	clk := newFakeClock()
	q := NewDelayQueue(DelayQueueConfig{Delay: time.Second, CapacityBytes: 3000}, clk)
	pkt := make([]byte, 1000)
	for i := 0; i < 3; i++ {
		if !q.Push(pkt) {
			t.Fatalf("push %d dropped below capacity", i)
		}
	}
	if q.Push(pkt) {
		t.Fatal("push above byte capacity accepted")
	}
	if q.Push([]byte{1}) {
		t.Fatal("1-byte push above byte capacity accepted")
	}
	if st := q.Stats(); st.DroppedFull != 2 || st.Enqueued != 3 || st.BytesHeld != 3000 {
		t.Fatalf("stats = %+v", st)
	}
	// Draining one makes room again.
	clk.advance(time.Second)
	if _, ok := q.Pop(clk.Now()); !ok {
		t.Fatal("due packet not released")
	}
	if !q.Push(pkt) {
		t.Fatal("push refused after room was made")
	}

	qp := NewDelayQueue(DelayQueueConfig{Delay: time.Second, CapacityPackets: 2}, clk)
	qp.Push([]byte{1})
	qp.Push([]byte{2})
	if qp.Push([]byte{3}) {
		t.Fatal("push above packet capacity accepted")
	}
	if qp.Stats().DroppedFull != 1 {
		t.Fatalf("stats = %+v", qp.Stats())
	}
}

func TestDelayQueueRandomLossFractionAndSeed(t *testing.T) {
	const n = 100000
	run := func(seed uint64) (dropped uint64, pattern []bool) {
		q := NewDelayQueue(DelayQueueConfig{Delay: time.Millisecond, LossFraction: 0.01, Seed: seed, CapacityPackets: n + 1}, newFakeClock())
		for i := 0; i < n; i++ {
			ok := q.Push([]byte{0})
			if i < 2000 {
				pattern = append(pattern, ok)
			}
		}
		return q.Stats().DroppedRandom, pattern
	}
	d1, p1 := run(42)
	// 1% of 100000 is 1000 with a standard deviation of about 31.5; 5 sigma either side.
	if math.Abs(float64(d1)-1000) > 160 {
		t.Fatalf("dropped %d of %d at 1%% loss", d1, n)
	}
	d2, p2 := run(42)
	if d1 != d2 {
		t.Fatalf("same seed, different drops: %d vs %d", d1, d2)
	}
	for i := range p1 {
		if p1[i] != p2[i] {
			t.Fatalf("same seed, different drop pattern at packet %d", i)
		}
	}
	d3, p3 := run(7)
	same := d3 == d1
	for i := range p1 {
		if p1[i] != p3[i] {
			same = false
		}
	}
	if same {
		t.Fatal("different seeds gave the identical drop pattern")
	}
}

func TestDelayQueueGrowsPreservingOrder(t *testing.T) {
	clk := newFakeClock()
	q := NewDelayQueue(DelayQueueConfig{Delay: 0}, clk)
	// Interleave pushes and pops so the ring wraps before it grows.
	next := 0
	for i := 0; i < 1000; i++ {
		q.Push([]byte{byte(i), byte(i >> 8)})
		if i%3 == 0 {
			p, ok := q.Pop(clk.Now())
			if !ok || int(p[0])|int(p[1])<<8 != next {
				t.Fatalf("pop %d: got %v", next, p)
			}
			next++
		}
	}
	for q.Len() > 0 {
		p, _ := q.Pop(clk.Now())
		if int(p[0])|int(p[1])<<8 != next {
			t.Fatalf("pop %d: got %v", next, p)
		}
		next++
	}
	if next != 1000 {
		t.Fatalf("popped %d packets, want 1000", next)
	}
}
