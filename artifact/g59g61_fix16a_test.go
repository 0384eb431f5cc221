package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Udp RcvbufErrors' change over a measured run given with a sign ("RcvbufErrors +N"), and
// UDP buffer errors said to occur. Before: neither was read.
func TestFix16aStatedRcvbufDeltaAndOccurs(t *testing.T) {
	wantStated(t, model.RateStatedUDPRcvbufRising, []statedCase{
		{"Our A/B run at the small buffer lost frames (RcvbufErrors +812, 2 Hz).\n", 1},
		{"After the replay UdpRcvbufErrors: +37 on the receiver.\n", 1},
		{"With two readers on the port a UDP receive buffer error occurs and frames are lost.\n", 1},
		{"We saw that UDP receive buffer errors occurred on the collector during the burst.\n", 1},
		// counter-cases: a zero change, a bare count, a possibility, no UDP, a negation
		{"With 64 MB the run was clean (RcvbufErrors +0).\n", 0},
		{"The fixture prints the RcvbufErrors delta across the run.\n", 0},
		{"If a UDP receive buffer error occurs, raise rmem_max.\n", 0},
		{"The receive buffer error occurs in the parser when the frame is short.\n", 0},
		{"No UDP receive buffer errors occurred after the change.\n", 0},
	})
}

// Cyclone DDS's own report of the socket buffer it got (ddsi_udp.c set_rcvbuf/set_sndbuf),
// in its trace format "<epoch> [<domain>] <thread>: ...". Before: prose, exit 3.
func TestFix16aCycloneDDSBufferNamedUnread(t *testing.T) {
	for _, c := range []struct{ text, why string }{
		{"1700000001.000100 [0]       recv: failed to increase socket receive buffer size to 4194304 bytes, continuing with 262144 bytes\n", "Cyclone DDS (ddsi_udp.c set_rcvbuf"},
		{"1700000001.000200 [0]       main: failed to increase socket receive buffer size to at least 8388608 bytes, current is 262144 bytes\n", "Cyclone DDS (ddsi_udp.c set_rcvbuf"},
		{"1700000001.000300 [0]       main: failed to increase socket send buffer size to 2097152 bytes, continuing with 262144 bytes\n", "Cyclone DDS (ddsi_udp.c set_sndbuf"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, c.why) {
			t.Errorf("%q: unread %+v, want one naming %q", c.text, tl.Unparsed, c.why)
		}
		if len(tl.Samples) != 0 || len(tl.Settings) != 0 {
			t.Errorf("%q: samples %+v settings %+v, want none", c.text, tl.Samples, tl.Settings)
		}
		checkAccount(t, tl)
	}
	// counter-case: the success line names nothing unread.
	tl := ParseString("1700000001.000400 [0]       recv: socket receive buffer size set to 4194304 bytes\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "Cyclone") {
			t.Errorf("success line named unread: %+v", u)
		}
	}
}

// A DDS stack's / MAVLink router's own queue or segment (Fast DDS's shared-memory transport,
// libmavconn's transmit queue) named unread; the generic words alone are not. Before: prose,
// exit 3.
func TestFix16aProgramQueuesNamedUnread(t *testing.T) {
	for _, c := range []struct{ text, why string }{
		{"2025-01-02 03:04:05.678 [RTPS_TRANSPORT_SHM Error] Failed to create segment fastrtps_0a1b2c3d4e5f6789: File exists -> Function Segment\n", "Fast DDS shared-memory transport"},
		{"[ERROR] [1700000000.123456789]: 1: DROPPED Message-Id 33 [28 bytes] IDs: 1.1 Seq: 77: MAVConnSerial::send_message: TX queue overflow\n", "libmavconn (mavros)"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, c.why) {
			t.Errorf("%q: unread %+v, want one naming %q", c.text, tl.Unparsed, c.why)
		}
		checkAccount(t, tl)
	}
	// counter-cases: another program's "Failed to create segment", a queue overflow not
	// libmavconn's.
	for _, text := range []string{
		"2025-01-02 03:04:05 api: Failed to create segment 42: validation error\n",
		"2025-01-02 03:04:05 worker 3: send_message: TX queue overflow\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "Fast DDS") || strings.Contains(u.Why, "libmavconn") {
				t.Errorf("%q named as %q", text, u.Why)
			}
		}
	}
}

// PX4 on a Pixhawk (NuttX) is named as another system when nothing Linux is read. Before: exit 3.
func TestFix16aNuttXNamedOtherOS(t *testing.T) {
	for _, text := range []string{
		"Our Pixhawk 6C reports mavlink_status.tx_buffer_overruns at 42 after the link stalls.\n",
		"nsh> top\nPID COMMAND PRI STACK CPU\n",
	} {
		if tl := ParseString(text, "t", Options{}); !strings.Contains(tl.Host.OtherOS, "NuttX") {
			t.Errorf("%q: other OS %q, want NuttX", text, tl.Host.OtherOS)
		}
	}
	// counter-cases: PX4 SITL on Linux (no Pixhawk, no NuttX); a Pixhawk named with no topic
	for _, text := range []string{
		"PX4 SITL on Ubuntu shows mavlink_status.tx_buffer_overruns at 12.\n",
		"I bought a Pixhawk last week and it works.\n",
	} {
		if tl := ParseString(text, "t", Options{}); tl.Host.OtherOS != "" {
			t.Errorf("%q: other OS %q, want none", text, tl.Host.OtherOS)
		}
	}
}

// IP reassembly failures named in prose (Ip ReasmFails, no value) are listed unread.
// Before: exit 3.
func TestFix16aReassemblyFailuresNamedUnread(t *testing.T) {
	for _, line := range []string{
		"The logging box could not reassemble the IP fragments arriving from the camera host.",
		"We saw IPv4 reassembly failures every few seconds during the replay.",
	} {
		if why, ok := netLossLine(line); !ok || !strings.Contains(why, "ReasmFails") {
			t.Errorf("%q: %q %v, want ReasmFails named", line, why, ok)
		}
	}
	// counter-cases: an application's own reassembly; no failure; negated
	for _, line := range []string{
		"The HTTP chunk reassembly failed in the proxy's parser.",
		"The receiver reassembles IP fragments without trouble.",
		"No IP reassembly failures were seen after the change.",
	} {
		if why, ok := netLossLine(line); ok && strings.Contains(why, "ReasmFails") {
			t.Errorf("%q: named %q", line, why)
		}
	}
	tl := ParseString("Our IP reassembly failures kept growing on the logger.\n", "t", Options{})
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "ReasmFails") {
		t.Errorf("unread %+v, want the line named", tl.Unparsed)
	}
}

// roslaunch's notice of a node killed by SIGKILL (exit code -9 / 137) is named unread.
// Before: exit 3.
func TestFix16aRoslaunchSigkillNamedUnread(t *testing.T) {
	for _, text := range []string{
		"[talker-3] process has died [pid 4242, exit code -9, cmd /opt/ros/noetic/lib/demo/talker __name:=talker].\n",
		"sim    | [planner-1] process has died [pid 77, exit code 137].\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "SIGKILL") {
			t.Errorf("%q: unread %+v, want roslaunch's SIGKILL named", text, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	// counter-cases: another exit code (a crash, SIGSEGV -11, exit 1), a code that only
	// begins with 9 or 137
	for _, text := range []string{
		"[talker-3] process has died [pid 4242, exit code -11, cmd /opt/ros/noetic/lib/demo/talker].\n",
		"[talker-3] process has died [pid 4242, exit code 1].\n",
		"[talker-3] process has died [pid 4242, exit code 1370].\n",
	} {
		if why, ok := roslaunchSigkillLine(text); ok {
			t.Errorf("%q: named %q", text, why)
		}
	}
}
