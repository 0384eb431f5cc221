package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// The reference (man pages, docs/cli.md) is generated from the commands themselves: each
// is run with -h while flagSetHook collects the flag sets it makes, so a flag's text exists
// once, in its definition. TestReference fails when the committed pages are stale or a flag
// has no text; `go test ./cmd/headroom -run TestReference -update-reference` rewrites them.

// commandHelp is one command's reference: its -h output and its flag sets.
type commandHelp struct {
	name, summary, help string
	flags               []*flag.FlagSet
	subHelp             []string // -h of each subcommand (lab run, ...)
}

// subcommands are the commands with subcommands of their own flags.
var subcommands = map[string][]string{"lab": {"list", "run", "compare"}}

func collectHelp() []commandHelp {
	var out []commandHelp
	for _, name := range commandNames() {
		var sets []*flag.FlagSet
		var subHelp []string
		flagSetHook = func(fs *flag.FlagSet) { sets = append(sets, fs) }
		var buf bytes.Buffer
		run([]string{name, "-h"}, IO{Stdin: strings.NewReader(""), Stdout: &buf, Stderr: io.Discard})
		for _, sub := range subcommands[name] {
			var sb bytes.Buffer
			run([]string{name, sub, "-h"}, IO{Stdin: strings.NewReader(""), Stdout: &sb, Stderr: io.Discard})
			subHelp = append(subHelp, sb.String())
		}
		flagSetHook = nil
		out = append(out, commandHelp{name: name, summary: commands[name].summary, help: buf.String(), flags: sets, subHelp: subHelp})
	}
	return out
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

// manPage is headroom-NAME.1.
func manPage(c commandHelp, date time.Time) []byte {
	var b bytes.Buffer
	up := strings.ToUpper("headroom-" + c.name)
	fmt.Fprintf(&b, ".TH %s 1 %q \"headroom\" \"headroom manual\"\n", up, date.Format("2006-01-02"))
	fmt.Fprintf(&b, ".SH NAME\nheadroom\\-%s \\- %s\n", roffEscape(c.name), roffEscape(c.summary))
	usage, rest, _ := strings.Cut(c.help, "\nExamples:\n")
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
	for _, fs := range c.flags {
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
	ex, codes, _ := strings.Cut(rest, "\nExit status:\n")
	fmt.Fprintf(&b, ".SH EXAMPLES\n.nf\n")
	for _, l := range strings.Split(strings.TrimSpace(ex), "\n") {
		fmt.Fprintln(&b, roffEscape(strings.TrimSpace(l)))
	}
	fmt.Fprintf(&b, ".fi\n.SH EXIT STATUS\n")
	_ = codes
	for _, e := range exitCodes {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s\n", e.code, roffEscape(e.what))
	}
	fmt.Fprintf(&b, ".SH SEE ALSO\n.BR headroom (1)\n")
	return b.Bytes()
}

// manIndex is headroom.1: the commands and the exit codes.
func manIndex(cs []commandHelp, date time.Time) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, ".TH HEADROOM 1 %q \"headroom\" \"headroom manual\"\n", date.Format("2006-01-02"))
	fmt.Fprintf(&b, ".SH NAME\nheadroom \\- diagnose Linux hosts whose network throughput collapses when the kernel runs short of memory\n")
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B headroom\n.I COMMAND\n[flags] [args]\n.br\n.B headroom \\-\\-version\n")
	fmt.Fprintf(&b, ".SH COMMANDS\n")
	for _, c := range cs {
		fmt.Fprintf(&b, ".TP\n.BR headroom\\-%s (1)\n%s\n", roffEscape(c.name), roffEscape(c.summary))
	}
	fmt.Fprintf(&b, ".SH EXIT STATUS\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s\n", e.code, roffEscape(e.what))
	}
	return b.Bytes()
}

// cliMarkdown is docs/cli.md: every command's -h.
func cliMarkdown(cs []commandHelp) []byte {
	var b bytes.Buffer
	fmt.Fprintln(&b, "# headroom command reference")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "Generated from the commands' own flag definitions (`go test ./cmd/headroom -run TestReference -update-reference`);")
	fmt.Fprintln(&b, "the same text is each command's `-h` and its man page (`man headroom-COMMAND`).")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| Exit | Meaning |\n|---|---|")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "| %d | %s |\n", e.code, e.what)
	}
	for _, c := range cs {
		fmt.Fprintf(&b, "\n## headroom %s\n\n%s.\n\n```\n%s```\n", c.name, c.summary, c.help)
		for i, h := range c.subHelp {
			fmt.Fprintf(&b, "\n### headroom %s %s\n\n```\n%s```\n", c.name, subcommands[c.name][i], h)
		}
	}
	return b.Bytes()
}
