package artifact

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
)

// GenerateSyslog writes about sizeBytes of a realistic syslog file: BSD-format lines from the
// kernel and a few daemons, mostly ordinary kernel messages, with a page allocation failure
// report (header, call trace, show_mem dump) every few thousand lines. The same seed gives
// the same bytes, so the parse benchmark and `make bench` (grep -c 'page allocation failure'
// on the same file) measure the same input. It returns the first write error.
func GenerateSyslog(w io.Writer, sizeBytes int64, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	bw := bufio.NewWriterSize(w, 1<<16)
	var written int64
	host := "cmsstor26"
	sec := 0
	uptime := 1234.0
	months := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	stamp := func() string {
		day := 1 + (sec/86400)%28
		mon := months[(sec/(86400*28))%12]
		return fmt.Sprintf("%s %2d %02d:%02d:%02d", mon, day, (sec/3600)%24, (sec/60)%60, sec%60)
	}
	put := func(tag, msg string) error {
		n, err := fmt.Fprintf(bw, "%s %s %s: %s\n", stamp(), host, tag, msg)
		written += int64(n)
		return err
	}
	kern := func(msg string) error {
		uptime += rng.Float64() * 0.5
		return put("kernel", fmt.Sprintf("[%12.6f] %s", uptime, msg))
	}
	ordinary := []func() string{
		func() string {
			return fmt.Sprintf("e1000: eth%d: e1000_watchdog: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: RX/TX", rng.Intn(2))
		},
		func() string {
			return fmt.Sprintf("TCP: request_sock_TCP: Possible SYN flooding on port %d. Sending cookies.  Check SNMP counters.", 1024+rng.Intn(60000))
		},
		func() string {
			return fmt.Sprintf("audit: type=1400 audit(%d.%03d:%d): apparmor=\"DENIED\" operation=\"open\" profile=\"/usr/sbin/ntpd\" name=\"/proc/%d/stat\" pid=%d comm=\"ntpd\"",
				1500000000+rng.Intn(1e8), rng.Intn(1000), rng.Intn(1e5), rng.Intn(65535), rng.Intn(65535))
		},
		func() string { return fmt.Sprintf("net_ratelimit: %d callbacks suppressed", 1+rng.Intn(300)) },
		func() string {
			return fmt.Sprintf("sd %d:0:0:0: [sd%c] Synchronizing SCSI cache", rng.Intn(8), 'a'+rune(rng.Intn(8)))
		},
		func() string {
			return fmt.Sprintf("usb %d-%d: new high-speed USB device number %d using ehci-pci", 1+rng.Intn(4), 1+rng.Intn(6), 2+rng.Intn(100))
		},
		func() string {
			return fmt.Sprintf("nf_conntrack: table full, dropping packet")
		},
		func() string {
			return fmt.Sprintf("IPv4: martian source 10.%d.%d.%d from 10.0.0.%d, on dev eth0", rng.Intn(255), rng.Intn(255), rng.Intn(255), rng.Intn(255))
		},
	}
	daemons := []func() (string, string){
		func() (string, string) {
			return fmt.Sprintf("sshd[%d]", 1000+rng.Intn(30000)), fmt.Sprintf("Accepted publickey for root from 10.1.%d.%d port %d ssh2", rng.Intn(255), rng.Intn(255), 1024+rng.Intn(60000))
		},
		func() (string, string) {
			return fmt.Sprintf("CRON[%d]", 1000+rng.Intn(30000)), "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)"
		},
		func() (string, string) {
			return "dcache", fmt.Sprintf("transfer %08x completed: %d bytes in %d ms", rng.Uint32(), rng.Intn(1<<30), rng.Intn(100000))
		},
	}
	failure := func() error {
		comm := []string{"java", "swapper", "kswapd0", "afpd"}[rng.Intn(4)]
		lines := []string{
			fmt.Sprintf("%s: page allocation failure. order:%d, mode:0x20", comm, rng.Intn(3)),
			" [<c01403a2>] __alloc_pages+0x2d2/0x3f0",
			" [<c0143af1>] __get_free_pages+0x21/0x40",
			" [<c0158a73>] kmem_getpages+0x33/0xa0",
			" [<c01599d1>] cache_grow+0xb1/0x1a0",
			" [<c0159c9b>] cache_alloc_refill+0x1db/0x230",
			" [<c0159f6d>] __kmalloc+0x6d/0x80",
			" [<c02d1f88>] __alloc_skb+0x58/0x120",
			" [<f8a2d5b2>] e1000_alloc_rx_buffers+0x1a2/0x2c0 [e1000]",
			" [<f8a2cd24>] e1000_clean+0x134/0x2a0 [e1000]",
			" [<c02d8a0c>] net_rx_action+0x6c/0x110",
			" [<c0126f45>] __do_softirq+0x55/0xc0",
			"Mem-info:",
			"DMA per-cpu:",
			"cpu 0 hot: low 2, high 6, batch 1 used:5",
			"cpu 0 cold: low 0, high 2, batch 1 used:1",
			fmt.Sprintf("Free pages:       %dkB (%dkB HighMem)", 18000+rng.Intn(2000), 700+rng.Intn(100)),
			"Active:513325 inactive:1421680 dirty:134572 writeback:18101 unstable:0 free:4567 slab:130154 mapped:512806 pagetables:1832",
			"DMA free:5276kB min:4680kB low:5848kB high:7020kB active:0kB inactive:0kB present:16384kB pages_scanned:21 all_unreclaimable? yes",
			"lowmem_reserve[]: 0 880 8944",
			fmt.Sprintf("Normal free:%dkB min:32768kB low:40960kB high:49152kB active:144176kB inactive:144684kB present:901120kB pages_scanned:0 all_unreclaimable? no", 12000+rng.Intn(1000)),
			"lowmem_reserve[]: 0 0 64512",
			"DMA: 1*4kB 1*8kB 1*16kB 0*32kB 0*64kB 1*128kB 0*256kB 0*512kB 1*1024kB 0*2048kB 1*4096kB = 5276kB",
			"Normal: 0*4kB 1*8kB 1*16kB 0*32kB 1*64kB 1*128kB 1*256kB 3*512kB 2*1024kB 2*2048kB 1*4096kB = 12248kB",
			"Free swap:       2031608kB",
			"2359296 pages of RAM",
		}
		for _, l := range lines {
			if err := kern(l); err != nil {
				return err
			}
		}
		return nil
	}
	for written < sizeBytes {
		sec += rng.Intn(3)
		var err error
		switch r := rng.Intn(4000); {
		case r == 0:
			err = failure()
		case r < 900:
			tag, msg := daemons[rng.Intn(len(daemons))]()
			err = put(tag, msg)
		default:
			err = kern(ordinary[rng.Intn(len(ordinary))]())
		}
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}
