// Package vm is the guest substrate of headroom's kernel lab: it boots Debian's real
// kernels (6.1 x86-64, 6.1 686-pae with HighMem) in throwaway QEMU guests, runs a
// scenario's script inside, and brings back the serial console, the kernel log, the
// script's output, exit status and result files. It sits beside lab/netlab and keeps its
// contract: everything a run starts it stops, on every exit path, and a SIGKILLed run's
// guardian sweeps what is left. It knows nothing of scenarios (package lab builds those).
//
// # Kernels
//
// Kernels() lists what it can boot; Fetch (`headroom lab kernels --fetch`, `make
// vmkernels`) downloads the image package the Debian metapackage points at and
// busybox-static of the same architecture with `apt-get download`, unpacks both with
// `dpkg-deb -x` into CacheDir()/<name> ($HEADROOM_VM_CACHE, default /var/cache/headroom/vm)
// and never installs anything. Kernel.Stat says whether a kernel is present, its package,
// version and release.
//
// # A run
//
//	g, err := vm.Start(ctx, vm.Spec{
//		Kernel:    "debian-6.1-686-pae",
//		MemoryMiB: 2048, CPUs: 2,
//		Cmdline:   []string{"vm.min_free_kbytes=1024"}, // extra kernel words, after the defaults
//		Modules:   []string{"sch_netem", "sch_fq"},     // loaded (with their dependencies) before the script
//		NICs:      []vm.NIC{{MTU: 9000}},               // nil: one NIC, MTU 1500
//		Disks:     []vm.Disk{{SizeMiB: 1024, Mount: "/mnt/data"}}, // virtio-blk, ext2; /dev/vda
//		Env:       map[string]string{"STREAMS": "20"},
//		Files:     []vm.File{{Path: "/etc/x.conf", Data: b}},
//		Script:    "headroom doctor --format json > $OUT/doctor.json\n",
//		Timeout:   5 * time.Minute,
//	})
//	defer g.Close()          // kills QEMU, removes namespace, taps, scratch files, journal
//	g.Ready(ctx)             // /init is up: modules loaded, share mounted, NICs configured
//	g.WaitConsole(ctx, "x")  // a line on the serial console (script: echo x > /dev/console)
//	g.Host().Do(func() error { ... })  // host side of the taps: dial vm.GuestAddr(0)
//	r, err := g.Wait(ctx)    // the guest powered off: r.ExitCode, r.Stdout, r.Stderr,
//	                         // r.Files ($OUT), r.Console, r.Dmesg, r.BootTime, r.Elapsed
//
// vm.Run(ctx, spec) is Start, Wait and Close in one.
//
// The guest's own netem and fq (busybox's tc has neither): list "sch_netem"/"sch_fq" in
// Spec.Modules and put the line of vm.Qdisc{Dev: "eth0", Kind: "netem", Delay: d, Loss: p}
// .Command() (or Kind "fq", FlowMaxRateBytes) in the script; the guest's headroom applies it
// over netlink (helper mode QdiscMode, registered by package lab).
//
// Inside the guest: busybox (every applet on PATH), /bin/headroom (a static headroom of
// the guest's architecture, GuestHeadroom: $HEADROOM_VM_BIN/headroom-<goarch>, or built from
// the source tree; Spec.Headroom "-" leaves it out), the modules, /scenario/run.sh (the
// script, run by sh as root in /tmp), and the environment OUT=/share/out, SHARE=/share,
// HOST_ADDR<i>, GUEST_ADDR<i> plus Spec.Env. The script's stdout and stderr go to the share,
// not the console; what it writes to /dev/console appears in the console (and WaitConsole).
// The root file system is the initramfs in RAM: its size (a few MiB plus headroom's ~10
// MiB) is taken from the guest's memory.
//
// # Host and guest
//
// /share is a virtio-9p share of a scratch directory (ShareDir), live both ways: results
// of any size come back without encoding, the host can read progress files while the guest
// runs and drop files the guest polls for. The serial console carries the kernel log and
// /init's markers (HEADROOM-VM-READY, -EXIT n, -ERROR), so the exit status is known even
// when the share fails.
//
// Each NIC i is virtio-net on tap "tap<i>" in the run's namespace "hr-<runid>-vm" (Host()):
// the host side is HostAddr(i) = 198.18.(100+i).1/24, the guest GuestAddr(i) =
// 198.18.(100+i).2, addresses that exist only there. Processes the host side runs in that
// namespace (Host().Do, netlab.StartHelper(g.Host(), ...)) send floods and TCP streams into
// the guest.
//
// # Acceleration
//
// ChooseAccel uses KVM only when a probe boot under KVM reached the kernel's no-root panic
// within 20 s (cached in the cache directory per host kernel and QEMU version); otherwise
// TCG with one host thread per guest CPU. $HEADROOM_VM_ACCEL=kvm|tcg forces one.
//
// # Cleanup
//
// Start makes a netlab run (owner file), starts its guardian before anything exists, and
// journals the scratch directory and the QEMU process (netlab.Objects). QEMU is started
// with PR_SET_PDEATHSIG from a thread that lives until QEMU exits, so it dies with a killed
// run; the taps die with QEMU (they are not persistent) and with the namespace. After a
// SIGKILL the guardian kills a journaled QEMU that is somehow still alive, removes the
// namespace and the scratch directory; `headroom lab cleanup` does the same for any dead
// run. Nothing is written outside the scratch directory, /run/headroom-lab and the cache.
package vm
