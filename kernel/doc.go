// Package kernel reads and parses one kernel interface per file: meminfo.go ↔ /proc/meminfo,
// buddyinfo.go ↔ /proc/buddyinfo, and so on. Each file has a public ReadX(Root) that opens the
// file under a Root, and a public ParseX(io.Reader) that parses the bytes, because pasted text
// is real input for headroom and goes through the same parsers.
//
// A Root makes the live host ("/"), a captured directory and a txtar capture go through the
// same code. Nothing here hard-codes /proc. The package knows nothing of rules or reports.
//
// Absent is not zero: key/value files parse into Counters, whose Get reports presence, so a
// counter a kernel does not have is visible as missing rather than read as 0.
package kernel
