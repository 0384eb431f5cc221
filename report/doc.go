// Package report renders a Timeline and its Diagnosis: terminal text, the stable JSON schema
// of DESIGN.md, Markdown for tickets, a self-contained HTML file, and the live `headroom
// watch` view (Watch, the record.Sink the sampling loop feeds). It computes no diagnosis of
// its own; the host summary it prints is arithmetic on the Timeline's own values, and Watch
// only runs the registered rules (diagnose.Run) over its sliding window.
package report
