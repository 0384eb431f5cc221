package artifact

import (
	"strings"
	"testing"
)

// fix44b: round 39's first-run misses by class (corpus 3705, 3719, 3716, 3759, 3746).
// fix40bWhys (fix40b_test.go) lists a text's unread lines by reason.

// LMDB's own limit errors (mdb_strerror's "MDB_NAME: text") are named as the database's
// map size or slot limit, not the host's memory (3705: strfry's writer).
func TestFix44bLMDBLimitNamed(t *testing.T) {
	text := "```\n[Writer          ] ERR| Error writing 5 events: mdb_put: MDB_MAP_FULL: Environment mapsize limit reached\n```\n"
	if w := fix40bWhys(text); w[lmdbLimitWhy+"; headroom has no reader for this log"] != [2]int{2, 2} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	tl := ParseString(text, "p", Options{})
	if len(tl.Events) != 0 || tl.Log.Len() != 0 {
		t.Errorf("read as the kernel's: %d events", len(tl.Events))
	}
	for _, s := range []string{
		"the map is full, is the environment mapsize limit reached?", // words, not LMDB's code and text
		"MDB_MAP_FULL", // the code's name alone
		"Out of memory: Killed process 1 (strfry) total-vm:1kB", // the kernel's
	} {
		if why, ok := dbOwnLine(s); ok && why == lmdbLimitWhy+"; headroom has no reader for this log" {
			t.Errorf("%q named as LMDB's limit", s)
		}
	}
}

// DuckDB's allocator message with its byte count is named as DuckDB's own (3719); the words
// without a byte count are not its message.
func TestFix44bDuckDBAllocBlockNamed(t *testing.T) {
	for _, s := range []string{
		`"Out of Memory Error: Failed to allocate block of 2048 bytes"`,
		"duckdb.OutOfMemoryException: Out of Memory Error: Failed to allocate block of 262144 bytes",
		"It will go wrong \"Out of Memory Error: Failed to allocate block of 2048 bytes\".",
	} {
		why, ok := dbOwnLine(s)
		if !ok || !strings.HasPrefix(why, "DuckDB's own allocator") {
			t.Errorf("%q: %q", s, why)
		}
	}
	for _, s := range []string{
		"Failed to allocate block of memory for the ring", // no byte count
		"failed to allocate block of 2048 bytes",          // another program's lower case
	} {
		if why, ok := dbOwnLine(s); ok && strings.HasPrefix(why, "DuckDB") {
			t.Errorf("%q named as DuckDB's", s)
		}
	}
	// DuckDB's "Out of Memory Error: ..." is DuckDB's, not .NET's OutOfMemoryException (3716).
	why, ok := runtimeOOMLine("duckdb.duckdb.OutOfMemoryException: Out of Memory Error: failed to pin block of size 256.0 KiB (476.7 MiB/476.8 MiB used)")
	if !ok || !strings.HasPrefix(why, "DuckDB's own out-of-memory") {
		t.Errorf("pin block: %q", why)
	}
	if why, _ := runtimeOOMLine("Unhandled exception. System.OutOfMemoryException: Array dimensions exceeded supported range."); !strings.HasPrefix(why, ".NET") {
		t.Errorf(".NET's own now %q", why)
	}
}

// XMRig's "<pool> read error: \"end of file\"" and "no active pools, stop mining" are named
// as the pool closing its connection (3759); other read errors and prose are not.
func TestFix44bStratumPoolClosed(t *testing.T) {
	text := "```\n" +
		"[2021-11-29 18:12:25.334]  net      stratum+tcp://raptorna.011data.com:3032 read error: \"end of file\"\n" +
		"[2021-11-29 18:12:25.334]  net      no active pools, stop mining\n```\n"
	w := fix40bWhys(text)
	if w[stratumClosedWhy] != [2]int{2, 2} || w[stratumNoPoolsWhy] != [2]int{3, 3} {
		t.Errorf("unread: %v", w)
	}
	for _, s := range []string{
		"[2021-11-29 18:12:25.334]  net      pool.example.com:3333 read error: \"connection reset by peer\"",
		"`stratum+tcp://raptorna.011data.com:3032 read error: \"end of file\"`",
	} {
		if why, ok := stratumPoolClosed(s); !ok || why != stratumClosedWhy {
			t.Errorf("%q not named", s)
		}
	}
	for _, s := range []string{
		"I get a read error: \"end of file\" sometimes",            // no pool before it
		"disk /dev/sda read error: \"end of file\"",                // not a HOST:PORT or stratum URL
		"stratum+tcp://pool:3032 read error: \"invalid argument\"", // not a closed connection
		"cat: file.txt: read error: Is a directory",
	} {
		if _, ok := stratumPoolClosed(s); ok {
			t.Errorf("%q named as a pool's close", s)
		}
	}
}

// A SLUB failure quoted newest first with its header cut to "SLUB:" (3746) is read from its
// cache line: cache, sizes, orders and node counts; the header's node and mode unknown.
func TestFix44bSlubHeaderCutReversed(t *testing.T) {
	text := "> 2021-11-08T06:36:01+01:00\t[107367.710213][   T98]   node 0: slabs: 142, objs: 2924, free: 0\n" +
		"> 2021-11-08T06:36:01+01:00\t[107367.710213][   T98]   cache: shmem_inode_cache, object size: 704, buffer size: 712, default order: 2, min order: 0\n" +
		"> 2021-11-08T06:36:01+01:00\t[107367.710212][   T98] SLUB:\n"
	tl := ParseString(text, "p", Options{})
	s := one(t, tl, KindSlabFailure).(*slabArtifact)
	if s.Cache != "shmem_inode_cache" || s.ObjectSize != 704 || s.BufferSize != 712 || s.DefaultOrder != 2 || s.MinOrder != 0 || s.Mode != "" {
		t.Errorf("slab %+v", *s.SlabFailure)
	}
	if len(s.SlabNodes) != 1 || s.SlabNodes[0].Slabs != 142 || s.SlabNodes[0].Objs != 2924 || s.SlabNodes[0].Free != 0 {
		t.Errorf("nodes %+v", s.SlabNodes)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	// Newest first with the whole header below: its node and mode are read.
	rev := "  node 0: slabs: 3, objs: 63, free: 0\n" +
		"  cache: kmalloc-2048, object size: 2048, buffer size: 2048, default order: 3, min order: 0\n" +
		"SLUB: Unable to allocate memory on node -1, gfp=0x20(GFP_ATOMIC)\n"
	s = one(t, ParseString(rev, "p", Options{}), KindSlabFailure).(*slabArtifact)
	if s.Cache != "kmalloc-2048" || s.Mode != "0x20(GFP_ATOMIC)" || s.Node != -1 || len(s.SlabNodes) != 1 {
		t.Errorf("reversed with header: %+v %+v", *s.SlabFailure, s.SlabNodes)
	}
	// Counter-cases: the format quoted alone in prose (a doc), a sentence naming the cache.
	for _, c := range []string{
		"The second line reads like\n\ncache: kmalloc-2048, object size: 2048, buffer size: 2048, default order: 3, min order: 0\n\nand names the cache.\n",
		"Which cache: shmem_inode_cache? Its default order: 2 seems high.\n",
	} {
		if n := len(artifactsOf(ParseString(c, "p", Options{}), KindSlabFailure)); n != 0 {
			t.Errorf("%q: %d slab failures", c, n)
		}
	}
}
