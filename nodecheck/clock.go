package nodecheck

import (
	"time"

	"golang.org/x/sys/unix"
)

// monotonic is CLOCK_MONOTONIC, the clock printk's local_clock follows closely enough for a
// window of minutes: both start at boot and stop during suspend.
func monotonic() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0, err
	}
	return time.Duration(ts.Nano()), nil
}
