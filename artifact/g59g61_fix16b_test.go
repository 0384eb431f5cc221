package artifact

import (
	"strings"
	"testing"
)

// g59–g61 fixed by class (fix16b): a program's own allocator and a framework's own memory
// policy (Unreal Engine, Ray's memory monitor, dask's worker budget) are named as unread,
// never taken for the kernel's OOM killer nor for the host's memory. Snippets written for
// the class, none copied from a case.

// Unreal Engine's allocator failing one request: named, no OOM stated or killed.
func TestFix16bUnrealAllocatorOOM(t *testing.T) {
	text := "Our dedicated server died last night, log tail:\n\n" +
		"[2021.03.04-11.02.17:120][  0]LogMemory: Fatal error: Ran out of memory allocating 2147483648 bytes with alignment 16\n" +
		"[2021.03.04-11.02.17:121][  0]Signal 11 caught.\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "Unreal Engine") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Fatalf("unparsed %+v stated %v kills %d: want Unreal's line unread, no OOM", tl.Unparsed, statedOOM(tl), len(f15Kills(tl)))
	}
	checkAccount(t, tl)
	// Counter: "ran out of memory" said of the host in a sentence is no engine's message.
	if _, ok := appOOMLine("the box ran out of memory allocating buffers for the game"); ok {
		t.Fatal("a sentence about the host read as Unreal's allocator message")
	}
}

// Ray's memory monitor killing a worker: named as Ray's, no kernel OOM kill, no stated OOM.
func TestFix16bRayMemoryMonitorKill(t *testing.T) {
	text := "Training stops after an hour with:\n\n" +
		"ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n" +
		"Memory on the node (IP: 10.1.2.3) was 30.10GB / 31.00GB (0.971), which exceeds the memory usage threshold of 0.95.\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "Ray's memory monitor") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Fatalf("unparsed %+v stated %v kills %d: want Ray's lines unread, no OOM", tl.Unparsed, statedOOM(tl), len(f15Kills(tl)))
	}
	threshold := false
	for _, u := range tl.Unparsed {
		threshold = threshold || u.FirstLine == 4 && strings.Contains(u.Why, "RAY_memory_usage_threshold")
	}
	if !threshold {
		t.Fatalf("unparsed %+v: want line 4 named as Ray's threshold", tl.Unparsed)
	}
	checkAccount(t, tl)
	// Counter: the kernel's kill line beside it is still a kill.
	tl = ParseString(text+"[ 812.000000] Out of memory: Killed process 4242 (ray::Trainer) total-vm:9000000kB, anon-rss:8000000kB, file-rss:0kB, shmem-rss:0kB\n", "t", Options{})
	if ks := f15Kills(tl); len(ks) != 1 {
		t.Fatalf("kills %+v, want the kernel's kill", ks)
	}
}

// dask's worker budget, wrapped at a terminal's width: named, no kill, no stated OOM.
func TestFix16bDaskMemoryBudget(t *testing.T) {
	text := "distributed.nanny - WARNING - Worker exceeded 95% memory budget. Restart\ning\n" +
		"distributed.worker - WARNING - Memory use is high but worker has no data to store to disk.\n" +
		"Process memory: 7.10 GB -- Worker memory limit: 8.00 GB\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "dask's nanny") || !f15Unread(tl, "dask's worker memory figures") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Fatalf("unparsed %+v stated %v kills %d: want dask's lines unread, no OOM", tl.Unparsed, statedOOM(tl), len(f15Kills(tl)))
	}
	checkAccount(t, tl)
	// Counter: a budget in prose that is no dask message is not named as dask's.
	if _, ok := appOOMLine("we set the memory budget of the box to 8 GB"); ok {
		t.Fatal("a sentence read as dask's budget message")
	}
}

// df's row of /dev/shm under its command: named as the tmpfs's, not the host's memory.
func TestFix16bShmDfRow(t *testing.T) {
	text := "Inside the container:\n\n$ df -h | grep shm\nshm              256M  200M   56M  79% /dev/shm\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "shared-memory tmpfs") || statedOOM(tl) {
		t.Fatalf("unparsed %+v stated %v: want the /dev/shm row named", tl.Unparsed, statedOOM(tl))
	}
	checkAccount(t, tl)
	// Counters: another mount's row, and a sentence naming /dev/shm, are not the tmpfs's row.
	for _, s := range []string{"/dev/sda1        40G   21G   17G  56% /", "overlay  59G  30G  27G  53% /var/lib/docker", "I raised the size of /dev/shm", "we use 87% of /dev/shm"} {
		if shmDfRow(s) {
			t.Fatalf("%q read as df's /dev/shm row", s)
		}
	}
}
