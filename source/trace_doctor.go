package source

import (
	"context"
	"errors"
	"time"

	"headroom/model"
)

// StartTraceNoting starts the trace of doctor --trace. A host that cannot be traced (no
// tracefs, not root, no instances: *TraceUnavailable) is not an error: the reason comes
// back as a note for the Timeline's NotAvailable and the tracer is nil.
func StartTraceNoting(opt TraceOptions) (*Tracer, *model.Unavailable, error) {
	t, err := StartTrace(opt)
	var na *TraceUnavailable
	switch {
	case errors.As(err, &na):
		return nil, &model.Unavailable{What: "kernel tracepoints (--trace)", Why: "not available: " + na.Why}, nil
	case err != nil:
		return nil, nil, err
	}
	return t, nil, nil
}

// FinishInto ends the trace after rest more (cut short when ctx ends: then ctx's error),
// and adds the traced window to tl, with what could not be traced in NotAvailable.
func (t *Tracer) FinishInto(ctx context.Context, tl *model.Timeline, rest time.Duration) error {
	if rest > 0 {
		select {
		case <-time.After(rest):
		case <-ctx.Done():
		}
	}
	w, err := t.Stop()
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	tl.Trace = w
	for _, u := range w.NotTraced {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: u.What, Why: "not available: " + u.Why})
	}
	return nil
}
