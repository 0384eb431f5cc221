package artifact

import (
	"slices"

	"headroom/kernel"
	"headroom/model"
)

// KindDriverRxFIFO: kernel log records of a (CAN) driver's receive FIFO overflow.
const KindDriverRxFIFO = "driver_rx_fifo_overflows"

// driverRxFIFOLog counts the log's records in which a driver reports its controller's
// receive FIFO overflowed (kernel.IsDriverRxFIFOOverflow: mcp251xfd, mcp25xxfd, m_can,
// c_can, sja1000 and kin). Each is a frame (or more) lost before the host read it, which
// the driver also counts in rx_over_errors: a stated overrun with its count, for
// nic-rx-overruns when no interface counter was read.
func (d *doc) driverRxFIFOLog() {
	if !d.rxFIFOLogged {
		return // no record holds one (appendLog): the log is not read back
	}
	n, first, last := 0, -1, -1
	var devs []string
	var u0, u1 int64 = -1, -1
	for i := 0; i < d.tl.Log.Len(); i++ {
		r := d.tl.Log.At(i)
		dev, ok := kernel.IsDriverRxFIFOOverflow(r.Message)
		if !ok {
			continue
		}
		n++
		if first < 0 || r.Line() < first {
			first = r.Line()
		}
		last = max(last, r.Line())
		if dev != "" && !slices.Contains(devs, dev) {
			devs = append(devs, dev)
		}
		if r.UptimeUsec >= 0 {
			if u0 < 0 || r.UptimeUsec < u0 {
				u0 = r.UptimeUsec
			}
			u1 = max(u1, r.UptimeUsec)
		}
	}
	if n == 0 {
		return
	}
	rates := map[string]float64{model.RateLoggedRxFIFOOverflows: float64(n)}
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (kernel log: a driver's receive FIFO overflow)", Rates: rates})
	data := map[string]any{"records": n, "devices": devs}
	if u0 >= 0 {
		data["first_s"], data["last_s"] = float64(u0)/1e6, float64(u1)/1e6
	}
	d.addArtifact(KindDriverRxFIFO, first, last, data)
}
