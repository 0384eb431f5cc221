package artifact

import "testing"

// TestWallClockIsNoCallerBlock: a program's "[HH:MM:SS]" wall clock at a line's start (a
// Minecraft or log4j server log: "[12:01:33] [Server thread/WARN]: ...") is no vendor
// kernel's "[cpu: comm:pid]" block, so its lines are not kernel records; a caller block whose
// comm holds a letter still is.
func TestWallClockIsNoCallerBlock(t *testing.T) {
	for _, raw := range []string{
		"[12:01:33] [Server thread/WARN]: Can't keep up! Is the server overloaded? Running 5043ms or 100 ticks behind",
		"[09:14:02] [main/INFO]: Loaded 7 recipes",
		"[23:59:59.123] worker started",
	} {
		ls := SplitLines(raw + "\n")
		if len(ls) != 1 || ls[0].Kernel || ls[0].Caller != "" {
			t.Errorf("%q read as a kernel record: %+v", raw, ls)
		}
	}
	for raw, caller := range map[string]string{
		"[3:  Binder:9343_3:22875] binder: release": "3:Binder:9343_3:22875",
		"[0:swapper/0:0] CPU0: shutdown":            "0:swapper/0:0",
	} {
		ls := SplitLines(raw + "\n")
		if len(ls) != 1 || !ls[0].Kernel || ls[0].Caller != caller {
			t.Errorf("%q: want kernel caller %q, got %+v", raw, caller, ls)
		}
	}
}
