package kernel

import "strings"

// A CAN controller's driver logs the overflow of its receive FIFO when it reads the chip's
// overflow flag, and counts the same event in the interface's rx_over_errors (and
// rx_errors): a frame lost in the controller before the host read it, the CAN form of a
// NIC's FIFO overrun (nic-rx-overruns). The forms, each from the driver's format string:
//   - mcp251xfd (drivers/net/can/spi/mcp251xfd/mcp251xfd-rx.c/-core.c
//     mcp251xfd_handle_rxovif): "RX-%d: FIFO overflow." and "RX-%d: MAB overflow
//     detected." (the message assembly buffer; netdev_info before 5.18, netdev_dbg since);
//   - mcp25xxfd (the out-of-tree driver for the same chip in Raspberry Pi kernels
//     before mcp251xfd): "RX-FIFO overflow in FIFO %d";
//   - m_can (drivers/net/can/m_can/m_can.c m_can_handle_lost_msg): "msg lost in rxf0";
//   - c_can (drivers/net/can/c_can/c_can_main.c c_can_handle_lost_msg_obj): "msg lost in
//     buffer %d";
//   - sja1000, sun4i_can, pcan_usb (peak_usb) on their data-overrun interrupt (IRQ_DOI,
//     PCAN_USB_ERROR_RXQOVR): "data overrun interrupt".
//
// fix40b: the Faraday FTGMAC100 (ASPEED BMCs' MAC) logs its interrupt status when a receive
// or bus error bit is set (drivers/net/ethernet/faraday/ftgmac100.c ftgmac100_poll, 3.x-4.11,
// and the Aspeed/Facebook OpenBMC trees' copies: netdev_info "[ISR] = 0x%x: %s%s%s%s" with
// "NO_RXBUF ", "RPKT_LOST ", "AHB_ERR ", "PHYSTS_CHG"): NO_RXBUF is the receive ring with no
// free descriptor (counted in rx_over_errors), RPKT_LOST a frame dropped because the MAC's
// RX FIFO was full (rx_fifo_errors). Either is a frame lost before the host read it, the
// ring-overrun class; AHB_ERR (a bus error) and PHYSTS_CHG (the PHY's link) alone are not.
// The driver's allocation failure is another message ("failed to allocate rx page").
//
// A transmit error, a bus-off or the TEF ("Transmit Event FIFO") are other events and do
// not match; the caller reads log records only, so a sentence naming "FIFO overflow" as a
// possibility is not one.
var driverRxFIFOForms = []struct{ needle, needle2 string }{
	{": FIFO overflow", "RX-"},
	{": MAB overflow detected", "RX-"},
	{"RX-FIFO overflow in FIFO ", ""},
	{"msg lost in rxf", ""},
	{"msg lost in buffer ", ""},
	{"data overrun interrupt", ""},
}

// IsDriverRxFIFOOverflow: msg is a kernel log record of a driver's receive FIFO overflow.
// It returns the device the record names ("can0", from "mcp251xfd spi0.0 can0: ..."), or
// "" when it names none.
func IsDriverRxFIFOOverflow(msg string) (dev string, ok bool) {
	if i := strings.Index(msg, "[ISR] = 0x"); i >= 0 {
		return ftgmacISR(msg, i)
	}
	if !strings.Contains(msg, "overflow") && !strings.Contains(msg, "overrun") && !strings.Contains(msg, "msg lost in ") {
		return "", false
	}
	for _, f := range driverRxFIFOForms {
		i := strings.Index(msg, f.needle)
		if i < 0 {
			continue
		}
		if f.needle2 != "" {
			j := strings.LastIndex(msg[:i], f.needle2)
			if j < 0 || !allDigits(msg[j+len(f.needle2):i]) {
				continue
			}
			i = j
		}
		return recordDevice(msg[:i]), true
	}
	return "", false
}

// ftgmacISR: msg, with the ftgmac100 status prefix at i, sets NO_RXBUF or RPKT_LOST.
func ftgmacISR(msg string, i int) (string, bool) {
	rest := msg[i+len("[ISR] = 0x"):]
	k := strings.Index(rest, ": ")
	if k <= 0 || !allHex(rest[:k]) {
		return "", false
	}
	for _, w := range strings.Fields(rest[k+2:]) {
		if w == "NO_RXBUF" || w == "RPKT_LOST" {
			return recordDevice(msg[:i]), true
		}
	}
	return "", false
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// recordDevice: the device a netdev_* prefix names, the last word before i that ends in
// ':' ("mcp251xfd spi0.0 can0: "), or "".
func recordDevice(before string) string {
	before = strings.TrimRight(before, " ")
	if !strings.HasSuffix(before, ":") {
		return ""
	}
	before = strings.TrimSuffix(before, ":")
	if k := strings.LastIndexByte(before, ' '); k >= 0 {
		before = before[k+1:]
	}
	if before == "" || strings.ContainsAny(before, "[]()") {
		return ""
	}
	return before
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
