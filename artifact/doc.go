// Package artifact reads pasted text — a dmesg excerpt in a ticket, `vmstat 1` in a mail, a
// whole forum post, a syslog file — and turns it into the same model.Timeline a live host
// gives, so the same rules run on it.
//
// Parse splits the text into lines (undoing syslog prefixes, dmesg timestamps, mail quoting,
// rsyslog #012 escapes, CRLF and Unicode look-alikes), finds the segments that are kernel or
// command output, tells each one's kind and hands it to that kind's parser: one file per kind
// (allocfail.go, oom.go, vmstat.go, top.go, ifconfig.go, ...), each with a public parser.
// /proc files pasted verbatim go through the kernel package's ParseX functions.
//
// Nothing is dropped silently: a segment that looks like kernel or command output but cannot
// be read is listed in Timeline.Unparsed with its lines and the reason. Nothing is guessed
// either: a GFP mode whose kernel era is unknown is reported with every era's decoding
// (kernel/gfp.go), and a sysctl key the kernel never had is flagged with the key the author probably
// meant (kernel/sysctlkeys.go).
package artifact
