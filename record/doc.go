// Package record owns `headroom record` and `headroom watch`: the sampling loop that both
// share (the same source.Sampler as doctor, plus the kernel log followed through
// /dev/kmsg and phase markers), the archive format a recording is written in, reading it
// back into a model.Timeline (Load). It records and reads; placing a recording's findings in
// time is judge.PlaceFindings, and the watch view that the loop feeds is rendered by
// report.Watch.
//
// The archive is gzip-compressed JSON lines (docs/record.md): a header line, then one
// object per sample, marker, batch of kernel log records or newly unavailable interface.
// Every interval ends with a deflate sync flush, so all bytes before it decode even if the
// process dies right after: a crash loses at most the sample being written. The compressed
// stream is cut into gzip members (closed every MemberFlushes intervals, at rotation and on
// exit); a reopened archive has its torn tail repaired before new members are appended.
package record
