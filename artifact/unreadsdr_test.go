package artifact

import (
	"strings"
	"testing"
)

// A camera's or a software radio's own stream statistics are listed as unread with what
// they are (fix27c, corpus 2372 and 2378's lines); the same words elsewhere are not.
func TestDeviceStreamLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"[GvStream::finalize] n_missing_packets      = 786", "GigE Vision"},
		{"[GvStream::finalize] n_resend_requests      = 1036", "GigE Vision"},
		{"Since this morning I got this annoying error message : SoapySDR device 'driver=airspyhf,device_id=0': readStream failed: OVERFLOW, disabling", "software radio"},
	} {
		why, ok := deviceStreamLine(c.line)
		if !ok || !strings.Contains(why, c.want) {
			t.Errorf("%q: %q %v", c.line, why, ok)
		}
	}
	for _, line := range []string{
		"n_missing_packets grows by 786 after a minute",
		"[Stream::finalize] Flush 50 buffer[s] in input queue",
		"[Foo::bar] started in 12 ms",
		"[GvStream::finalize] n_missing_packets = lots",
		"Overflows may be normal, especially if the application has not read from the stream buffer fast enough.",
		"readStream failed: no such device",
	} {
		if why, ok := deviceStreamLine(line); ok {
			t.Errorf("%q read as a device stream's statistics: %s", line, why)
		}
	}
	// The whole paste is no longer "nothing headroom reads" (exit 3).
	tl := ParseString("```\n[GvStream::finalize] n_received_packets     = 199174\n[GvStream::finalize] n_missing_packets      = 786\n```\nWhat is happening here?\n", "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != whyCameraStreamStats || tl.Unparsed[0].LastLine-tl.Unparsed[0].FirstLine != 1 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}
}

// Aravis's debug lines and a receiving program's own missing-packet log lines are named as
// such (fix27c, corpus 2365, 2373, 2380's lines); a sentence with the same words is not.
func TestAppStreamLossLines(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"[GvStream::process_packet] Error packet at dt = 50162, packet id = 1549 frame id = 4", "GigE Vision library's own debug"},
		{"        [os_driver-1] [1707078499342109361] missing 22 packets (last m_id: 335, new m_id: 688)", "found missing"},
		{"2023-03-07 04:35:25 [DEBUG   ]  info: Packet loss during receive >10% (75.2% missing)", "found missing"},
	} {
		why, ok := deviceStreamLine(c.line)
		if !ok || !strings.Contains(why, c.want) {
			t.Errorf("%q: %q %v", c.line, why, ok)
		}
	}
	for _, line := range []string{
		"We are missing 22 packets every second on the lidar.",
		"[GvStream::loop] Standard socket method",
		"[Gv stream] is the name of the thread, 3 of them",
		"2023-03-07 04:35:25 [INFO] missing config key, using 10",
	} {
		if why, ok := deviceStreamLine(line); ok {
			t.Errorf("%q named a stream's own loss: %s", line, why)
		}
	}
}
