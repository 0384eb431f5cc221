// Package report renders a Timeline and its Diagnosis: terminal text, the stable JSON schema
// of DESIGN.md, Markdown for tickets, and a self-contained HTML file. It computes no
// diagnosis; the host summary it prints is arithmetic on the Timeline's own values.
package report
