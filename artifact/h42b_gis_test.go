package artifact

import (
	"testing"
)

// h42b: GIS servers' own allocation failures, read from each program's source before the
// next round was seen; no snippet is copied from a case. Sources:
//   - MapServer src/mapdebug.c msDebug ("[%s].%ld ", ctime and microseconds before each
//     line of MS_ERRORFILE) and src/maperror.c msSetErrorInternal (msDebug("%s: %s %s\n",
//     routine, ms_errorCodes[code], message), ms_errorCodes[MS_MEMERR] "Memory allocation
//     error."): https://github.com/MapServer/MapServer (src/mapdebug.c, src/maperror.c,
//     src/mapogr.cpp "Unable to allocate temporary point cache.", src/mapdrawgdal.c
//     "%s: %d: Out of memory allocating %u bytes.")
//   - GDAL port/cpl_vsisimple.cpp VSIMallocVerbose, VSIMalloc2Verbose, VSIMalloc3Verbose,
//     VSICallocVerbose: "%s, %d: cannot allocate " CPL_FRMT_GUIB " bytes" (calloc: "NxM
//     bytes"): https://github.com/OSGeo/gdal/blob/master/port/cpl_vsisimple.cpp
//   - GDAL port/cpl_conv.cpp CPLMalloc "Out of memory allocating N bytes", with the request
//     written as its factors (the brief's "VSIMalloc3(): Out of memory allocating").
func TestH42bGISOwnAllocations(t *testing.T) {
	for _, c := range []struct {
		name, text, word, program string
		val                       int64 // request_bytes; 0: no figure
	}{
		{"mapserver errorfile, cpl figure", "[Tue Dec  1 10:12:03 2026].442100 msResampleGDALToMap(): Memory allocation error. mapresample.c: 1786: Out of memory allocating 48000000 bytes.\n", "MapServer", "cpl (gdal, mapserver)", 48000000},
		{"mapserver errorfile, no figure", "[Tue Dec  1 10:12:03 2026].442100 msOGRLayerNextShape(): Memory allocation error. Unable to allocate temporary point cache.\n", "MS_MEMERR", "", 0},
		{"mapserver stderr", "msOGRLayerNextShape(): Memory allocation error. Unable to allocate temporary point cache.\n", "MS_MEMERR", "", 0},
		{"gdal vsimalloc", "ERROR 2: cpl_vsisimple.cpp, 1024: cannot allocate 6400000000 bytes\n", "VSIMallocVerbose", "gdal", 6400000000},
		{"gdal vsicalloc", "ERROR 2: gdalwarpoperation.cpp, 1150: cannot allocate 1000x8 bytes\n", "VSIMallocVerbose", "gdal", 8000},
		{"gdal factors", "ERROR 1: VSIMalloc3(): Out of memory allocating 40000 * 40000 * 4 bytes\n", "CPLMalloc", "cpl (gdal, mapserver)", 6400000000},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%s: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.name, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		if n := len(artifactsOf(tl, KindKernelLog)); n != 0 {
			t.Errorf("%s: %d kernel_log artifacts: MapServer's and GDAL's own lines are no kernel's", c.name, n)
		}
		if tl.Host.MemTotalKB != 0 {
			t.Errorf("%s: host memory %d kB: the program's request is no host's", c.name, tl.Host.MemTotalKB)
		}
		limits := artifactsOf(tl, KindProgramLimit)
		if c.val == 0 {
			if len(limits) != 0 {
				t.Errorf("%s: program_limit %+v, want none (no figure)", c.name, limits)
			}
		} else {
			found := false
			for _, a := range limits {
				if m, ok := a.Data.(map[string]any); ok && m["program"] == c.program && m["request_bytes"] == c.val {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: program_limit %+v, want %s request_bytes=%d", c.name, limits, c.program, c.val)
			}
		}
		checkAccount(t, tl)
	}
}

// Counters: MapServer's other errors are no kernel record and no allocation failure; the
// docs' explanation, a question, advice and another program's "cannot allocate" are not
// GDAL's or MapServer's line; dmesg -T's own stamp still makes a kernel record.
func TestH42bGISCounters(t *testing.T) {
	tl := ParseString("[Tue Dec  1 10:12:03 2026].442100 msDrawMap(): Image handling error. Failed to draw layer named 'roads'.\n", "t", Options{})
	if len(artifactsOf(tl, KindKernelLog)) != 0 {
		t.Errorf("MapServer's image error read as a kernel log: %+v", tl.Artifacts)
	}
	tl = ParseString("[Tue Dec  1 10:12:03 2026] Out of memory: Killed process 4121 (mapserv) total-vm:4194304kB, anon-rss:3145728kB, file-rss:0kB, shmem-rss:0kB, UID:33 pgtables:6400kB oom_score_adj:0\n", "t", Options{})
	if len(f15Kills(tl)) != 1 {
		t.Errorf("dmesg -T's kill line: kills %d, want 1", len(f15Kills(tl)))
	}
	for _, s := range []string{
		"MapServer reports Memory allocation error. when the map SIZE is too large",
		"what does msDrawRasterLayerGDAL(): Memory allocation error. mean?",
		"set GDAL_CACHEMAX to 512 so GDAL does not say: cannot allocate 4096 bytes",
		"bash: fork: cannot allocate memory",
		"mmap: cannot allocate 4096 bytes of shared memory",
		"the VSIMalloc functions fail with cannot allocate N bytes when the raster is huge",
	} {
		if why, _, ok := jobWorkerOwnLine(s); ok {
			t.Errorf("%q named as GDAL's or MapServer's own line: %s", s, why)
		}
	}
	// A product that is no request stays a lone figure or none.
	if v, ok := requestProduct("40000 pixels * 4 bytes"); ok {
		t.Errorf("requestProduct read %d from words between the factors", v)
	}
	if _, ok := requestProduct("48000000 bytes."); ok {
		t.Errorf("requestProduct read a lone figure as a product")
	}
}
