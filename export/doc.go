// Package export publishes the live Timeline and its findings to Prometheus: one Collector
// that samples the host through package source when scraped (at most once per minimum
// interval, shared by concurrent scrapers), keeps a bounded window of recent samples
// (packed: window.go) and kernel-log events, runs the diagnose registry over that window at
// most once per rules interval, and turns the newest sample and the last findings into
// metrics, which the /metrics handler writes itself (expose.go). It also serves the small
// live status page and the rule pages that alert runbooks link to (see NewHandler).
//
// What it exposes is kernel counters and finding ids only: no process names, addresses,
// command lines or log text. Metric names follow the Prometheus conventions (headroom_
// prefix, _total for counters, base units in the name); where the kernel's own unit is pages
// (zone watermarks, tcp_mem) the metric says pages and headroom_page_size_bytes converts.
// docs/serve.md lists every metric with the kernel file it comes from and which need root.
package export
