package report

import (
	"encoding/json"
	"io"

	"headroom/diagnose"
	"headroom/internal/buildinfo"
	"headroom/model"
)

// SchemaVersion is the version of the JSON report. Fields are only ever added within a
// version; a rename or removal bumps it.
const SchemaVersion = 1

// Document is the JSON report (DESIGN.md "JSON schema").
type Document struct {
	Schema       int                 `json:"schema"`
	Source       model.SourceInfo    `json:"source"`
	Host         Host                `json:"host"`
	Summary      Summary             `json:"summary"`
	Artifacts    []model.Artifact    `json:"artifacts"`
	Unparsed     []model.Unparsed    `json:"unparsed"`
	ReadInPart   []model.Unparsed    `json:"read_in_part,omitempty"` // read lines with a part not read (fix52a)
	Lines        *model.LineAccount  `json:"lines,omitempty"`        // pasted text: where every line went
	Findings     []diagnose.Finding  `json:"findings"`
	Checks       []diagnose.Check    `json:"checks"`
	NotAvailable []model.Unavailable `json:"not_available"`
	// Trace is what the kernel's tracepoints said during a traced live window (doctor
	// --trace): drops by the kernel's reason and location, reclaim and compaction stalls.
	// Added within schema 1.
	Trace *model.TraceWindow `json:"trace,omitempty"`
	// Diagnosis is the story (issue 19): causes, chains with finding ids and evidence,
	// first change, next evidence. Added within schema 1 (docs/json-diagnosis.md).
	Diagnosis diagnose.Story `json:"diagnosis"`
	// Build is the headroom that wrote the report (version, VCS revision and time, Go,
	// OS/arch). Added within schema 1 (docs/json-schema.md).
	Build buildinfo.Info `json:"build"`
}

// Host is the host block of the JSON report.
type Host struct {
	Kernel     string `json:"kernel"`
	Arch       string `json:"arch"`
	WordBits   int    `json:"word_bits,omitempty"`
	HighMem    *bool  `json:"highmem,omitempty"`
	PageSize   int    `json:"page_size"`
	MemTotalKB int64  `json:"mem_total_kb"`
	LowTotalKB int64  `json:"low_total_kb,omitempty"`
	CPUs       int    `json:"cpus,omitempty"`
	Hostname   string `json:"hostname,omitempty"`
	BootID     string `json:"boot_id,omitempty"`
	// OtherOS: the text is from this system, not Linux (added within schema 1).
	OtherOS string `json:"other_os,omitempty"`
}

// NewDocument assembles the JSON report. Empty lists are written as [] so consumers can
// iterate without null checks.
func NewDocument(tl *model.Timeline, d diagnose.Diagnosis) Document {
	doc := Document{
		Schema: SchemaVersion,
		Source: tl.Source,
		Host: Host{Kernel: tl.Host.Kernel, OtherOS: tl.Host.OtherOS, Arch: tl.Host.Arch, WordBits: tl.Host.WordBits, HighMem: tl.Host.HighMem,
			PageSize: tl.Host.PageSize, MemTotalKB: tl.Host.MemTotalKB, LowTotalKB: tl.Host.LowTotalKB, CPUs: tl.Host.CPUs, Hostname: tl.Host.Hostname,
			BootID: tl.Host.BootID},
		Summary:      Summarize(tl),
		Artifacts:    tl.Artifacts,
		Unparsed:     tl.Unparsed,
		ReadInPart:   tl.ReadInPart,
		Lines:        tl.Lines,
		Findings:     d.Findings,
		Checks:       d.Checks,
		NotAvailable: tl.NotAvailable,
		Trace:        tl.Trace,
		Diagnosis:    storyOf(d),
		Build:        buildinfo.Get(),
	}
	if doc.Artifacts == nil {
		doc.Artifacts = []model.Artifact{}
	}
	if doc.Unparsed == nil {
		doc.Unparsed = []model.Unparsed{}
	}
	if doc.Findings == nil {
		doc.Findings = []diagnose.Finding{}
	}
	for i := range doc.Findings {
		if doc.Findings[i].Changes == nil {
			doc.Findings[i].Changes = []model.Change{}
		}
		if doc.Findings[i].Evidence == nil {
			doc.Findings[i].Evidence = []diagnose.Evidence{}
		}
	}
	if doc.Checks == nil {
		doc.Checks = []diagnose.Check{}
	}
	if doc.NotAvailable == nil {
		doc.NotAvailable = []model.Unavailable{}
	}
	return doc
}

// WriteJSON writes the JSON report, indented.
func WriteJSON(w io.Writer, tl *model.Timeline, d diagnose.Diagnosis) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewDocument(tl, d))
}
