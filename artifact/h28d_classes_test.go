package artifact

import (
	"strings"
	"testing"
)

// Pre-round 28 (h28d), streaming and analytics platforms. HotSpot's "Memory: 4k page,
// physical Nk(Mk free), swap Sk(Fk free)" (os_linux.cpp os::print_memory_info, in
// hs_err_pid<N>.log and at the top of a JDK 8 GC log) is the host's memory: read as free's
// Mem and Swap rows. Before: listed unread, no figure kept.
func TestH28dHsErrMemory(t *testing.T) {
	const line = "Memory: 4k page, physical 16318160k(178928k free), swap 0k(0k free)\n"
	for _, text := range []string{
		line,
		"```\n" + line + "```\n",
		"> " + line,
		"OpenJDK 64-Bit Server VM (25.265-b01) for linux-amd64 JRE (1.8.0_265-b01), built on Jul 27 2020 07:33:48 by \"openjdk\" with gcc 4.4.7\n" + line +
			"CommandLine flags: -XX:InitialHeapSize=268435456 -XX:MaxHeapSize=536870912 -XX:+PrintGC\n",
		"kafka-1  | " + line,
	} {
		tl := ParseString(text, "t.txt", Options{})
		var got, free, swap int64 = -1, -1, -1
		for _, s := range tl.Samples {
			if s.MemInfo == nil {
				continue
			}
			got, _ = s.MemInfo.Get("MemTotal")
			free, _ = s.MemInfo.Get("MemFree")
			swap, _ = s.MemInfo.Get("SwapTotal")
		}
		if got != 16318160 || free != 178928 || swap != 0 {
			t.Errorf("%q: MemTotal %d MemFree %d SwapTotal %d, want 16318160 178928 0", text, got, free, swap)
		}
		if _, ok := tl.Samples[0].MemInfo.Get("MemAvailable"); ok {
			t.Errorf("%q: the free figure taken as MemAvailable", text)
		}
	}
	// macOS's JVM prints no swap: total and free only, and it is another system's: not read.
	// A hs_err with its /proc/meminfo above the line: one sample, meminfo's (MemAvailable kept).
	tl := ParseString("/proc/meminfo:\nMemTotal:       16318160 kB\nMemFree:          178928 kB\nMemAvailable:     412344 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n\n"+line, "t.txt", Options{})
	n := 0
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			n++
			if v, _ := s.MemInfo.Get("MemAvailable"); v != 412344 {
				t.Errorf("hs_err's meminfo lost MemAvailable: %d", v)
			}
		}
	}
	if n != 1 {
		t.Errorf("hs_err with /proc/meminfo: %d memory samples, want 1", n)
	}
	// counter-cases: another system's JVM, a sentence naming the line, another program's
	// "Memory:", a malformed figure.
	for _, text := range []string{
		"Java HotSpot(TM) 64-Bit Server VM (25.271-b09) for windows-amd64 JRE (1.8.0_271-b09), built on Sep 16 2020 19:14:59 by \"\" with MS VC++ 15.9 (VS2017)\nMemory: 4k page, physical 16707876k(8722496k free), swap 19198244k(7559524k free)\n",
		"Java HotSpot(TM) 64-Bit Server VM (25.201-b09) for bsd-amd64 JRE (1.8.0_201-b09)\nMemory: 4k page, physical 16777216k(45944k free)\n",
		"The hs_err file says Memory: 4k page, physical 16318160k(178928k free), swap 0k(0k free) on the old box.\n",
		"Memory: 16 GB, Swap: 0\n",
		"Memory: 4k page, physical 16318160k(99999999k free), swap 0k(0k free)\n",
	} {
		tl := ParseString(text, "t.txt", Options{})
		for _, s := range tl.Samples {
			if s.MemInfo != nil {
				t.Errorf("%q read as the host's memory: %+v", text, s.MemInfo)
			}
		}
	}
}

// The family's own lines are named (listed unread with what they prove), so a paste of
// only them is no exit 3; none is a figure of the host's memory. Before: prose, exit 3.
func TestH28dNamedLines(t *testing.T) {
	for line, want := range map[string]string{
		"Caused by: java.lang.OutOfMemoryError: Map failed\n": "vm.max_map_count",
		"[2022-11-28 03:12:44,123] ERROR Error while loading log dir /var/lib/kafka/data (kafka.log.LogManager)\njava.io.IOException: Map failed\n":                                                                                                                 "vm.max_map_count",
		"2022-11-28 03:12:44,123 [myid:1] - WARN  [SyncThread:0:FileTxnLog@338] - fsync-ing the write ahead log in SyncThread:0 took 12345ms which will adversely effect operation latency. File size is 67108880 bytes. See the ZooKeeper troubleshooting guide\n": "fsync.warningthresholdms",
		"[03:12:44,123][WARNING][jvm-pause-detector-worker][IgniteKernal] Possible too long JVM pause: 1234 milliseconds.\n":                                                                                                                                        "LongJVMPauseDetector",
		"2023-01-01 00:00:00:000 +0000 [W][jvm-pause-detector-worker] Possible too long JVM pause [duration=1234ms]\n":                                                                                                                                              "LongJVMPauseDetector",
		"Message type           Dropped\nREAD                         0\nMUTATION                 12345\n":                                                                                                                                                          "nodetool tpstats",
		"2022.11.28 03:12:45.000001 [ 12346 ] {} <Error> DB::Exception: Allocator: Cannot mmap 1.00 GiB., errno: 12, strerror: Cannot allocate memory. (CANNOT_ALLOCATE_MEMORY)\n":                                                                                  "ClickHouse's allocator",
	} {
		tl := ParseString(line, "t.txt", Options{})
		ok := false
		for _, u := range tl.Unparsed {
			ok = ok || strings.Contains(u.Why, want)
		}
		if !ok {
			t.Errorf("%q: not named (%q): %+v", line, want, tl.Unparsed)
		}
	}
	// counter-case: advice that only names the message
	tl := ParseString("If you see java.io.IOException: Map failed, raise vm.max_map_count.\n", "t.txt", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "FileChannelImpl") {
			t.Errorf("advice read as the JVM's record: %+v", u)
		}
	}
}
