// Package manual renders headroom's reference (the man pages and docs/cli.md) from the
// commands themselves: each command's -h text and the flag sets it made, collected by
// cmd/headroom's TestReference, so a flag's text exists once, in its definition.
package manual

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"time"
)

// Command is one command's reference: its -h output and its flag sets, and for a command
// with subcommands of their own flags (lab run, ...) each one's name and -h.
type Command struct {
	Name, Summary, Help string
	Flags               []*flag.FlagSet
	Subcommands         []string
	SubHelp             []string
}

// ExitCode is a row of the exit status table.
type ExitCode struct {
	Code int
	What string
}

// roffEscape escapes text for a roff line: backslashes, and a leading dot or quote.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// Page is headroom-NAME.1: synopsis, options, examples and exit status from the -h text
// and the flag sets.
func Page(c Command, codes []ExitCode, date time.Time) []byte {
	var b bytes.Buffer
	up := strings.ToUpper("headroom-" + c.Name)
	fmt.Fprintf(&b, ".TH %s 1 %q \"headroom\" \"headroom manual\"\n", up, date.Format("2006-01-02"))
	fmt.Fprintf(&b, ".SH NAME\nheadroom\\-%s \\- %s\n", roffEscape(c.Name), roffEscape(c.Summary))
	usage, rest, _ := strings.Cut(c.Help, "\nExamples:\n")
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.nf\n")
	var synopsis []string
	for _, l := range strings.Split(usage, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "-") {
			break
		}
		synopsis = append(synopsis, l)
	}
	for _, l := range synopsis {
		fmt.Fprintln(&b, roffEscape(l))
	}
	fmt.Fprintf(&b, ".fi\n")
	var opts []*flag.Flag
	seen := map[string]bool{}
	for _, fs := range c.Flags {
		fs.VisitAll(func(f *flag.Flag) {
			if !seen[f.Name] {
				seen[f.Name] = true
				opts = append(opts, f)
			}
		})
	}
	if len(opts) > 0 {
		fmt.Fprintf(&b, ".SH OPTIONS\n")
		for _, f := range opts {
			arg, text := flag.UnquoteUsage(f)
			fmt.Fprintf(&b, ".TP\n.B \\-\\-%s", roffEscape(f.Name))
			if arg != "" {
				fmt.Fprintf(&b, " \\fI%s\\fR", roffEscape(arg))
			}
			fmt.Fprintln(&b)
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
				text += fmt.Sprintf(" (default %s)", f.DefValue)
			}
			fmt.Fprintln(&b, roffEscape(text))
		}
	}
	ex, _, _ := strings.Cut(rest, "\nExit status:\n") // the exit status comes from codes
	fmt.Fprintf(&b, ".SH EXAMPLES\n.nf\n")
	for _, l := range strings.Split(strings.TrimSpace(ex), "\n") {
		fmt.Fprintln(&b, roffEscape(strings.TrimSpace(l)))
	}
	fmt.Fprintf(&b, ".fi\n.SH EXIT STATUS\n")
	for _, e := range codes {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s\n", e.Code, roffEscape(e.What))
	}
	fmt.Fprintf(&b, ".SH SEE ALSO\n.BR headroom (1)\n")
	return b.Bytes()
}

// Index is headroom.1: the commands and the exit codes.
func Index(cs []Command, codes []ExitCode, date time.Time) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, ".TH HEADROOM 1 %q \"headroom\" \"headroom manual\"\n", date.Format("2006-01-02"))
	fmt.Fprintf(&b, ".SH NAME\nheadroom \\- diagnose Linux hosts whose network throughput collapses when the kernel runs short of memory\n")
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B headroom\n.I COMMAND\n[flags] [args]\n.br\n.B headroom \\-\\-version\n")
	fmt.Fprintf(&b, ".SH COMMANDS\n")
	for _, c := range cs {
		fmt.Fprintf(&b, ".TP\n.BR headroom\\-%s (1)\n%s\n", roffEscape(c.Name), roffEscape(c.Summary))
	}
	fmt.Fprintf(&b, ".SH EXIT STATUS\n")
	for _, e := range codes {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s\n", e.Code, roffEscape(e.What))
	}
	return b.Bytes()
}

// Markdown is docs/cli.md: every command's -h.
func Markdown(cs []Command, codes []ExitCode) []byte {
	var b bytes.Buffer
	fmt.Fprintln(&b, "# headroom command reference")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "Generated from the commands' own flag definitions (`go test ./cmd/headroom -run TestReference -update-reference`);")
	fmt.Fprintln(&b, "the same text is each command's `-h` and its man page (`man headroom-COMMAND`).")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| Exit | Meaning |\n|---|---|")
	for _, e := range codes {
		fmt.Fprintf(&b, "| %d | %s |\n", e.Code, e.What)
	}
	for _, c := range cs {
		fmt.Fprintf(&b, "\n## headroom %s\n\n%s.\n\n```\n%s```\n", c.Name, c.Summary, c.Help)
		for i, h := range c.SubHelp {
			fmt.Fprintf(&b, "\n### headroom %s %s\n\n```\n%s```\n", c.Name, c.Subcommands[i], h)
		}
	}
	return b.Bytes()
}
