package artifact

import "strings"

// Capture sensors' own engine messages and the kernel's AF_PACKET frame-size message
// (fix18a; round 13's g66). A paste of them alone held nothing headroom read (exit 3); each
// is listed as unread with what it says, and nothing is diagnosed from it:
//
//   - Suricata 4.x-6.x's log lines carry the engine's error code: "<Error> (PoolInit) --
//     [ERRCODE: SC_ERR_POOL_INIT(66)] - alloc error", "<Warning> - [ERRCODE:
//     SC_ERR_AFP_CREATE(190)] - Inefficient setup: ring-size < max_pending_packets.
//     Resetting to decent value 2501." (src/util-error.h, util-debug.c SCLogErr). The code
//     is Suricata's, not the kernel's: a pool it preallocates within its own stream.memcap
//     ("failed to setup/expand stream session pool. Expand stream.memcap?",
//     stream-tcp.c StreamTcpThreadInit), an AF_PACKET ring-size it resets itself
//     (source-af-packet.c AFPComputeRingParams). "alloc error" there is no page
//     allocation failure of the kernel, and "ring-size" no NIC descriptor ring (ethtool -g).
//   - ntopng's interface stats as JSON ("networkinterface", "gathering", "packets",
//     "drops": the drops its pcap or PF_RING handle counted): a line "drops": N of an object
//     that holds ntopng's own keys (looked for at most ntopngLookback lines up).
//   - the kernel's "tpacket_rcv: packet too big, clamped from %u to %u. macoff=%u"
//     (net/packet/af_packet.c tpacket_rcv, pr_err_once): a frame larger than the
//     capture ring's tp_frame_size (the snaplen a sensor chose, with GRO/LRO merging
//     frames) was truncated; a ring frame-size mismatch, not a memory or buffer shortage.
//
// Counter-cases: a sentence that names SC_ERR_ codes without Suricata's "[ERRCODE: " field,
// "drops": N in another program's JSON, a sentence naming tpacket_rcv without the message.
// Gated by substring searches; no regexp.

const (
	suricataErrcode = "[ERRCODE: SC_ERR_"
	tpacketClamped  = "tpacket_rcv: packet too big, clamped from "
	ntopngLookback  = 40
)

const suricataOwnWhy = "Suricata's own engine message (4.x-6.x log format \"<Level> - [ERRCODE: SC_ERR_...(N)] - ...\", src/util-error.h): an error code of the engine, not a kernel message"

const suricataPoolWhy = "Suricata's own memory pool and cap (stream-tcp.c StreamTcpThreadInit: \"failed to setup/expand stream session pool. Expand stream.memcap?\", util-pool.c PoolInit \"alloc error\", SC_ERR_POOL_INIT/SC_ERR_MEM_ALLOC): the engine could not preallocate its sessions within its configured stream.memcap; its own accounting limit, not a page allocation failure of the kernel"

const suricataRingSizeWhy = "Suricata's own AF_PACKET setting (source-af-packet.c: \"Inefficient setup: ring-size < max_pending_packets. Resetting to decent value N\", SC_ERR_AFP_CREATE): the engine raised its capture ring's frame count itself; a configuration notice, not the NIC's descriptor ring (ethtool -g) and no drop"

const tpacketClampedWhy = "the kernel's AF_PACKET message (net/packet/af_packet.c tpacket_rcv: \"packet too big, clamped from N to M\"): a frame larger than the capture ring's frame size (the sensor's snaplen or tp_frame_size, frames merged by GRO/LRO) was truncated; a capture frame-size setting, not a memory or buffer shortage; headroom has no rule for it"

const ntopngDropsWhy = "ntopng's interface statistics (JSON \"packets\"/\"drops\" of its capture handle, pcap or PF_RING): " + sensorCaptureWhy

// sensorMessageLine says why line t is a capture sensor's own engine message or the
// kernel's AF_PACKET frame-size message.
func sensorMessageLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if k := strings.Index(t, tpacketClamped); k >= 0 && startsWithDigit(t[k+len(tpacketClamped):]) {
		return tpacketClampedWhy, true
	}
	if afpRingNoMemory(t) {
		return afpRingNoMemoryWhy, true
	}
	k := strings.Index(t, suricataErrcode)
	if k < 0 {
		if strings.Contains(t, "failed to setup/expand stream session pool") {
			return suricataPoolWhy, true // Suricata 7's form, without the error code
		}
		return "", false
	}
	switch rest := t[k+len(suricataErrcode):]; {
	case strings.HasPrefix(rest, "POOL_INIT(") || strings.HasPrefix(rest, "MEM_ALLOC(") && strings.Contains(rest, "memcap"):
		return suricataPoolWhy, true
	case strings.HasPrefix(rest, "AFP_CREATE(") && strings.Contains(rest, "ring-size"):
		return suricataRingSizeWhy, true
	}
	return suricataOwnWhy, true
}

// afpRingNoMemory: Suricata could not set up its AF_PACKET capture ring for want of memory
// (source-af-packet.c AFPSetupRing: 7.x "af-packet: IF: failed to activate TPACKET_V3 on
// packet socket: %s", "...failed to mmap: %s"; 6.x "[ERRCODE: SC_ERR_MEM_ALLOC(1)] - Unable
// to mmap, error %s", "Unable to allocate RX Ring for iface %s: (%d) %s"), strerror ENOMEM.
func afpRingNoMemory(t string) bool {
	if !strings.Contains(t, "Cannot allocate memory") {
		return false
	}
	if strings.Contains(t, "af-packet: ") {
		return true // Suricata 7's module prefix
	}
	return strings.Contains(t, suricataErrcode) && (strings.Contains(t, "Unable to mmap") || strings.Contains(t, "RX Ring for iface"))
}

const afpRingNoMemoryWhy = "Suricata's AF_PACKET ring setup failed with ENOMEM (source-af-packet.c AFPSetupRing: setsockopt PACKET_RX_RING or its mmap): the kernel could not allocate the capture ring the engine asked for (ring-size × block-size per thread, net/packet/af_packet.c alloc_pg_vec: one contiguous block each, falling back to vmalloc), so the capture thread did not start; the ring's size is the sensor's setting (suricata.yaml af-packet ring-size, block-size); a page allocation failure the kernel logged with it is read by the alloc-fail rules; headroom has no rule for the errno alone"

// ntopngDrops: line i is the "drops": N member of ntopng's interface stats object.
func (d *doc) ntopngDrops(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.HasPrefix(t, `"drops":`) || !allDigits(strings.TrimSpace(strings.TrimSuffix(t[len(`"drops":`):], ","))) {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-ntopngLookback; j-- {
		u := strings.TrimSpace(d.ls[j].Text)
		if strings.HasPrefix(u, `"version_ntop"`) || strings.HasPrefix(u, `"networkinterface"`) {
			return true
		}
		if u == "{" || u == "" {
			return false // the object's start, or a break: no ntopng key above in it
		}
	}
	return false
}
