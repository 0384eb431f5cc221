package artifact

import (
	"strings"
	"testing"
)

// Pre-round 19 (h19b): net/sunrpc/svcsock.c svc_tcp_sendto's short send (netFSLine).

// nfsd's short send quoted bare is named with what it proves (unread with its why), not
// prose; stamped it is a kernel log record.
func TestH19bRPCServerShortSendNamed(t *testing.T) {
	for _, line := range []string{
		"rpc-srv/tcp: nfsd: sent only 245760 when sending 1048644 bytes - shutting down socket",
		"rpc-srv/tcp: nfsd: sent 245760 when sending 1048644 bytes - shutting down socket",
	} {
		why, ok := netFSLine(line)
		if !ok || !strings.Contains(why, "svc_tcp_sendto") {
			t.Errorf("%q: %v %q", line, ok, why)
		}
	}
	for _, line := range []string{
		`pr_notice("rpc-srv/tcp: %s: %s %d when sending %d bytes\n"`,
		"svc: socket 000000001234abcd TCP (listen) state change 10",
	} {
		if _, ok := netFSLine(line); ok {
			t.Errorf("%q was read as the short send", line)
		}
	}
}
