// Package ctxsleep waits for a duration or a context, whichever ends first: what the
// sampler's interval (source.Collect), the lab's warm-up and measurement phases and headroom
// check's interval between readings all do. It imports nothing of headroom's, so any layer
// may use it.
package ctxsleep

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx is done, and returns ctx.Err() when ctx ended first (nil when
// d passed). With d ≤ 0 it does not wait and returns ctx.Err().
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
