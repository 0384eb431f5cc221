// Package source turns each kind of input into a model.Timeline: the live host (sampled
// through package kernel), a captured tree or txtar (the same readers under another
// kernel.Root), and a recording (package record). Pasted text goes through package artifact.
//
// The live sampler is built to be left running: every file it reads each interval is opened
// once and re-read with pread at offset 0 into a reused buffer; sysctls and static host facts
// are read once per run; pagetypeinfo and socket dumps only when asked.
package source
