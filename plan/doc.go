// Package plan computes the network and memory settings a host needs for a given link: the
// bandwidth-delay product per stream, TCP buffer limits that let each stream fill its share,
// the budget those buffers take from RAM (from lowmem on a 32-bit kernel with HighMem), the
// free-page reserve that absorbs atomic receive allocations at line rate, and the packet
// queue sizes. It also checks what well-known tuning guides would set against the same budget.
//
// Everything here is a pure function of an Input: plan never reads the host (package main
// gathers host facts) and never prints. Units live in names: bytes, KB (1024 bytes, as the
// kernel's "kB"), pages, bits per second. Each formula cites the kernel source or document it
// models and says which kernel version changed it.
package plan
