package artifact

import (
	"strings"
	"testing"
)

// Hazelcast's one-time warning that a TCP socket's buffer read back other than configured
// is named as the program's own per-socket size (corpus 2872 exited 3 on it), under
// java.util.logging's two-line record and bare; advice that quotes it is not.
func TestHazelcastSocketBufferConflictNamed(t *testing.T) {
	for _, text := range []string{
		"Mar 27, 2019 11:32:30 AM com.hazelcast.internal.networking.nio.NioChannelOptions\nWARNING: The configured tcp send buffer size conflicts with the value actually being used by the socket and can lead to sub-optimal performance. Configured 1024 bytes, actual 2304 bytes. On Linux look for kernel parameters 'net.ipv4.tcp_wmem' and 'net.core.wmem_max'. This warning will only be shown once.\n",
		"WARNING: The configured tcp receive buffer size conflicts with the value actually being used by the socket and can lead to sub-optimal performance. Configured 4194304 bytes, actual 425984 bytes.\n",
	} {
		tl := ParseString(text, "t.txt", Options{})
		named := false
		for _, u := range tl.Unparsed {
			named = named || strings.Contains(u.Why, "NioChannelOptions")
		}
		if !named {
			t.Errorf("%q: not named: %+v", text, tl.Unparsed)
		}
		if len(tl.Samples) > 0 {
			t.Errorf("%q: read as a sample of the host: %+v", text, tl.Samples)
		}
	}
	tl := ParseString("If you see 'The configured tcp send buffer size conflicts with the value actually being used by the socket', raise net.core.wmem_max.\n", "t.txt", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "NioChannelOptions") {
			t.Errorf("advice read as Hazelcast's record: %+v", u)
		}
	}
}
