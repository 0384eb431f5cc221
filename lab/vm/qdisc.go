package vm

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/vishvananda/netlink"
)

// The guest's own qdiscs. Debian's 6.1 kernels build netem and fq as modules
// (CONFIG_NET_SCH_NETEM=m, CONFIG_NET_SCH_FQ=m), but busybox's tc knows neither, so the
// guest's headroom sets them over netlink as a helper mode (netlab.ServeHelpers; package lab
// registers QdiscMode, since a process serves the modes of one package). A scenario lists
// "sch_netem" or "sch_fq" in Spec.Modules (nothing in the guest autoloads them: busybox's
// modprobe needs modules.dep) and puts Qdisc.Command's line in its script.

// QdiscMode is the helper mode that applies a Qdisc inside the guest.
const QdiscMode = "vm-qdisc"

// Qdisc is a root qdisc for one of the guest's devices.
type Qdisc struct {
	Dev  string `json:"dev"`  // "eth0"
	Kind string `json:"kind"` // "netem" or "fq"
	// netem: one-way delay of everything dev sends, random loss (0..1), queue limit in
	// packets (0: 100000, so the delay line itself does not drop).
	Delay time.Duration `json:"delay_ns,omitempty"`
	Loss  float64       `json:"loss,omitempty"`
	Limit uint32        `json:"limit,omitempty"`
	// fq: the pacing cap per flow in bytes per second (0: none; fq paces at each socket's
	// own rate either way).
	FlowMaxRateBytes uint32 `json:"flow_max_rate_bytes,omitempty"`
}

func (q Qdisc) check() error {
	switch {
	case q.Dev == "":
		return fmt.Errorf("vm: qdisc: no device")
	case q.Kind != "netem" && q.Kind != "fq":
		return fmt.Errorf("vm: qdisc kind %q: want netem or fq", q.Kind)
	case q.Loss < 0 || q.Loss > 1:
		return fmt.Errorf("vm: qdisc loss %v: want 0..1", q.Loss)
	case q.Delay < 0 || q.Delay > time.Minute:
		return fmt.Errorf("vm: qdisc delay %v: want 0..1m", q.Delay)
	case q.Kind == "fq" && (q.Delay != 0 || q.Loss != 0):
		return fmt.Errorf("vm: fq has no delay or loss (use netem)")
	}
	return nil
}

// Command is the guest's shell line that applies q: the guest's headroom started in
// QdiscMode. It fails in the guest (non-zero status, a message on stderr) when the module is
// not loaded or the device does not exist.
func (q Qdisc) Command() (string, error) {
	if err := q.check(); err != nil {
		return "", err
	}
	b, err := json.Marshal(q)
	if err != nil {
		return "", err
	}
	return "HEADROOM_LAB_HELPER=" + QdiscMode + " HEADROOM_LAB_HELPER_CONFIG=" + shQuote(string(b)) + " " + guestBin, nil
}

// RunQdiscHelper is QdiscMode: it replaces the root qdisc of the device.
func RunQdiscHelper(cfg []byte) error {
	var q Qdisc
	if err := json.Unmarshal(cfg, &q); err != nil {
		return fmt.Errorf("vm: qdisc config: %w", err)
	}
	if err := q.check(); err != nil {
		return err
	}
	link, err := netlink.LinkByName(q.Dev)
	if err != nil {
		return fmt.Errorf("vm: qdisc: %s: %w", q.Dev, err)
	}
	// No handle: the kernel picks one. Replacing a root qdisc of another kind under the same
	// handle is refused (net/sched/sch_api.c tc_modify_qdisc: an existing handle whose kind
	// differs is EINVAL); without one, the new qdisc is grafted in the old one's place.
	attrs := netlink.QdiscAttrs{LinkIndex: link.Attrs().Index, Parent: netlink.HANDLE_ROOT}
	var qd netlink.Qdisc
	switch q.Kind {
	case "netem":
		limit := q.Limit
		if limit == 0 {
			limit = 100000
		}
		qd = netlink.NewNetem(attrs, netlink.NetemQdiscAttrs{Latency: uint32(q.Delay / time.Microsecond), Loss: float32(q.Loss * 100), Limit: limit})
	case "fq":
		fq := netlink.NewFq(attrs)
		fq.FlowMaxRate = q.FlowMaxRateBytes
		qd = fq
	}
	if err := netlink.QdiscReplace(qd); err != nil {
		return fmt.Errorf("vm: %s: replace root qdisc with %s (is sch_%s in Spec.Modules?): %w", q.Dev, q.Kind, q.Kind, err)
	}
	return nil
}
