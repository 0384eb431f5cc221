package diagnose

import "testing"

// fix52d (round 47, corpus 4338): tailscale's `bugreport --diagnose` re-prints ENA's ethtool
// counters under its own prefix (doctor/ethtool printStats: "ethtool: IFACE: [stats: ]warning:
// NAME = N > 0"); the allowance rule judges them as it judges ethtool -S.
func TestFix52dTailscaleEthtoolReprintAllowance(t *testing.T) {
	for name, text := range map[string]string{
		"2024 form": "diag: ethtool: ens5: features: [rx-hashing tx-checksum-ipv4 rx-gro]\n" +
			"diag: ethtool: ens5: warning: pps_allowance_exceeded = 99 > 0\n" +
			"diag: ethtool: ens5: warning: bw_in_allowance_exceeded = 1865 > 0\n",
		"stats: form": "ethtool: ens5: stats: warning: pps_allowance_exceeded = 99 > 0\n" +
			"ethtool: ens5: stats: warning: bw_in_allowance_exceeded = 1865 > 0\n",
	} {
		t.Run(name, func(t *testing.T) {
			tl := pasteTimeline(t, text)
			f := mustFire(t, run(t, "nic-allowance-exceeded", tl), Info)
			if !evidenceHas(f, "pps_allowance_exceeded", "99 packets") || !evidenceHas(f, "bw_in_allowance_exceeded", "1865 packets") {
				t.Errorf("evidence %+v", f.Evidence)
			}
		})
	}
	// Counter-cases: advice that sets a counter with '=', a question, a doc's list of the
	// names, another program's "warning: x = 1" without tailscale's template.
	for _, text := range []string{
		"If ethtool: ens5: pps_allowance_exceeded = 99 shows up, raise the instance size.\n",
		"Why does ethtool: ens5: warning: pps_allowance_exceeded grow?\n",
		"- pps_allowance_exceeded = the packets queued or dropped because the PPS allowance was exceeded\n",
		"gcc: warning: pps_allowance_exceeded = 99 > 0\n",
	} {
		mustNotCheck(t, run(t, "nic-allowance-exceeded", pasteTimeline(t, text)), "no cloud allowance counter")
	}
}
