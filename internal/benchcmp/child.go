package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"headroom/artifact"
	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// childEnv names the mode in which benchcmp re-executes itself to measure headroom's code as
// a process of its own, the same way the C floor and the peers are processes of their own.
const childEnv = "HEADROOM_BENCHCMP_CHILD"

// runChildMode runs the measured side of a comparison and prints one line of key=value
// pairs. It returns the exit status.
func runChildMode(mode string, args []string) int {
	if err := pinSelf(); err != nil {
		fmt.Fprintf(os.Stderr, "benchcmp %s: %v\n", mode, err)
		return 1
	}
	var err error
	switch mode {
	case "sampler":
		err = childSampler(args)
	case "readfile":
		err = childReadFile(args)
	case "pread":
		err = childPread(args)
	case "accept":
		err = childAccept()
	case "parse":
		err = childParse(args)
	default:
		err = fmt.Errorf("unknown child mode %q", mode)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchcmp %s: %v\n", mode, err)
		return 1
	}
	return 0
}

// childSampler takes N samples with source.Sampler and reports the CPU time per sample
// (getrusage RUSAGE_SELF over the loop: every thread, the garbage collector's included) and
// the heap allocations per sample (runtime.MemStats.Mallocs).
func childSampler(args []string) error {
	fs := flag.NewFlagSet("sampler", flag.ContinueOnError)
	n := fs.Int("n", 1000, "samples")
	root := fs.String("root", "/", "root directory")
	sockets := fs.Bool("sockets", false, "dump TCP sockets through sock_diag each sample")
	ethtool := fs.Bool("ethtool", false, "query ethtool statistics and rings of every NIC each sample")
	fresh := fs.Bool("fresh", false, "a fresh Sample each time (what doctor and record keep) instead of SampleInto")
	if err := fs.Parse(args); err != nil {
		return err
	}
	r := kernel.DirRoot(*root)
	s := source.NewSampler(r, source.Options{Sockets: *sockets, Ethtool: *ethtool, TopSockets: 10})
	defer s.Close()
	var dst model.Sample
	for range 3 { // warm up: size every buffer and counter set
		s.SampleInto(&dst, time.Now())
	}
	runtime.GC()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := selfCPU()
	var keep model.Sample
	for range *n {
		if *fresh {
			keep = s.Sample(time.Now())
		} else {
			s.SampleInto(&dst, time.Now())
		}
	}
	used := selfCPU() - start
	runtime.ReadMemStats(&ms1)
	_ = keep
	for _, u := range s.Unavailable() {
		if *root == "/" {
			fmt.Fprintf(os.Stderr, "benchcmp sampler: not available: %s: %s\n", u.What, u.Why)
		}
	}
	sockets0 := 0
	if dst.Sockets != nil {
		sockets0 = int(dst.Sockets.Total)
	}
	var nicStats []string // NICs whose driver answered ETHTOOL_GSTATS
	for _, st := range dst.NICStats {
		if st.Stats != nil {
			nicStats = append(nicStats, st.Name)
		}
	}
	fmt.Printf("samples=%d files=%d cpu_ns_per_sample=%d allocs_per_sample=%.2f heap_bytes_per_sample=%.0f sockets=%d nic_stats=%s\n",
		*n, len(s.Files()), used.Nanoseconds()/int64(*n),
		float64(ms1.Mallocs-ms0.Mallocs)/float64(*n), float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(*n), sockets0,
		strings.Join(append(nicStats, "-")[:max(len(nicStats), 1)], ","))
	return nil
}

// childReadFile reads the sampler's files with os.ReadFile each sample, without parsing: the
// naive way (open, fstat, read, close per file).
func childReadFile(args []string) error {
	fs := flag.NewFlagSet("readfile", flag.ContinueOnError)
	n := fs.Int("n", 500, "samples")
	if err := fs.Parse(args); err != nil {
		return err
	}
	files := fs.Args()
	for _, f := range files {
		if _, err := os.ReadFile(f); err != nil {
			return err
		}
	}
	start := selfCPU()
	for range *n {
		for _, f := range files {
			if _, err := os.ReadFile(f); err != nil {
				return err
			}
		}
	}
	used := selfCPU() - start
	fmt.Printf("samples=%d files=%d cpu_ns_per_sample=%d\n", *n, len(files), used.Nanoseconds()/int64(*n))
	return nil
}

// childParse parses a syslog file with artifact.Parse, as `headroom doctor FILE` does, and
// reports how many allocation failures it found (to check against grep -c) and the CPU time
// of the parse alone.
func childParse(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("want one file, got %q", args)
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	start := selfCPU()
	tl, err := artifact.Parse(f, args[0], artifact.Options{})
	if err != nil {
		return err
	}
	used := selfCPU() - start
	failures := 0
	for _, ev := range tl.Events {
		if ev.AllocFailure != nil {
			failures += ev.AllocFailure.Reports()
		}
	}
	fmt.Printf("failures=%d events=%d unparsed=%d parse_cpu_ns=%d\n", failures, len(tl.Events), len(tl.Unparsed), used.Nanoseconds())
	return nil
}

// childPread is the C floor's loop written in Go: the files opened once, each read with
// pread from offset 0 until it returns 0, nothing parsed. It separates what Go's system
// call path costs from what parsing costs.
func childPread(args []string) error {
	fs := flag.NewFlagSet("pread", flag.ContinueOnError)
	n := fs.Int("n", 1000, "samples")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var fds []int
	var one []bool
	for _, f := range fs.Args() {
		f, single := strings.CutPrefix(f, "1:") // floorArgs: a single-record file
		one = append(one, single)
		fd, err := unix.Open(f, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %w", f, err)
		}
		fds = append(fds, fd)
	}
	buf := make([]byte, 64<<10)
	sample := func() error {
		for i, fd := range fds {
			for off := 0; ; {
				m, err := unix.Pread(fd, buf, int64(off))
				if err == unix.EINTR {
					continue
				}
				if err != nil {
					return err
				}
				if m == 0 || one[i] && off == 0 && m < len(buf) {
					break
				}
				off += m
			}
		}
		return nil
	}
	if err := sample(); err != nil {
		return err
	}
	start := selfCPU()
	for range *n {
		if err := sample(); err != nil {
			return err
		}
	}
	used := selfCPU() - start
	fmt.Printf("samples=%d files=%d cpu_ns_per_sample=%d\n", *n, len(fds), used.Nanoseconds()/int64(*n))
	return nil
}

// childAccept listens on a free loopback port, prints its address, and accepts and holds
// connections until its standard input closes. The scaling section dials from the parent,
// so that each process holds only one end of every connection (RLIMIT_NOFILE may not be
// raisable in a container).
func childAccept() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("addr=%s\n", ln.Addr())
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	_, _ = io.Copy(io.Discard, os.Stdin)
	return ln.Close()
}
