package kernel

// How an RX ring is lengthened depends on the kernel and the driver. `ethtool -G` issues
// ETHTOOL_SRINGPARAM, which the kernel passes to the driver's set_ringparam (ethtool_ops;
// net/core/ethtool.c ethtool_set_ringparam returns -EOPNOTSUPP without it). 2.4's drivers set
// their rings when they load: e1000's receive ring is the module parameter RxDescriptors
// (drivers/net/e1000/e1000_param.c in 2.4.x: "Receive Descriptor Count", default 256,
// E1000_DEFAULT_RXD; up to 4096 descriptors on 82544 and later), and seed 001's author saw
// that same "ring buffer size in the driver set to 256 packets" on 2.4.19. ethtool's ring
// commands reached e1000 with its ethtool_ops (2.6), so on 2.4 the advice is the module
// parameter.

// RingSetting says how to lengthen an RX ring on a kernel: the command, and why that one.
// known is false when the kernel version is unknown: then ethtool -G, today's way.
func RingSetting(v KernelVersion, known bool) (command, why string) {
	if known && !v.AtLeast(2, 6, 0) {
		return "modprobe e1000 RxDescriptors=4096 (or the driver's own ring parameter; reload the driver)",
			"on 2.4 a driver sets its rings when it loads: e1000's receive ring is its RxDescriptors module parameter " +
				"(drivers/net/e1000/e1000_param.c, default 256), and ethtool -G needs a set_ringparam the 2.4 drivers lack"
	}
	return "ethtool -G IFACE rx MAX", "ethtool -G sets the ring through the driver's set_ringparam (ETHTOOL_SRINGPARAM)"
}
