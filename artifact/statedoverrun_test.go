package artifact

import "testing"

// A program's own "RX Overruns" (an SDR's sample stream read too slowly) is not the NIC's
// (fix27c, corpus 2377's sentence); sentences about a NIC's overruns still state one.
func TestStatedOverrunNotAProgramsOwn(t *testing.T) {
	for _, text := range []string{
		"It get a lot of fake \"RX Overruns\" due to way soapysdr-pluto sets or osmocom-analog consumes buffer size.\n",
		"We get spurious RX overruns at startup.\n",
		"The SDR reports RX overruns when the host reads the samples too slowly.\n",
		"With the USB dongle I see receive overruns every few seconds.\n",
	} {
		if statedOverrun(text) {
			t.Errorf("a program's own overrun read as the NIC's:\n%s", text)
		}
	}
	for _, text := range []string{
		"Since the upgrade we see RX overruns on eth1 every night.\n",
		"The traffic spikes, resulting in packet overruns.\n",
		"We get fifo overrun errors all the time:\n    0 0 0 0 0\n",
		"The NIC shows RX overruns while the SDR streams samples.\n",
		"ifconfig shows RX overruns growing on the box that records the USB camera stream.\n",
		"The stream stalls and enp3s0 counts rx overruns.\n",
	} {
		if !statedOverrun(text) {
			t.Errorf("a stated NIC overrun lost:\n%s", text)
		}
	}
}
