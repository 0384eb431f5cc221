package artifact

import (
	"strconv"
	"strings"
)

// fix45c: `omero config get` prints the OMERO server's configuration one "key=value" a line
// (omero/plugins/prefs.py: the keys of etc/grid/config.xml's active profile, sorted). Its
// JVM sizing keys are read by omero/install/jvmcfg.py when the server starts: with the
// default percent strategy each service's heap (-Xmx) is percent.SERVICE of system_memory,
// in MB (system_memory overrides the memory jvmcfg would detect, and the figure used is
// clamped to min_system_memory..max_system_memory); heap_size.SERVICE sets a heap outright.
// ZeroC Ice's properties stand in the same listing: Ice.MessageSizeMax is the largest
// message Ice accepts, in KB (IceInternal::Instance: "Ice.MessageSizeMax", 1024 by default),
// Ice.ThreadPool.NAME.Size/SizeMax/SizeWarn a thread pool's sizes in threads.
//
// Each such line is the program's own sizing (a program_limit artifact with the figure in
// the unit the program reads it in) and is named unread: none is the host's memory (a
// system_memory typed by hand is what OMERO was told, not what the host has), and no rule
// reads them.

const (
	whyOmeroJVMCfg = "OMERO's JVM sizing as `omero config get` prints it (omero/install/jvmcfg.py: each service's heap is percent.SERVICE of system_memory in MB, clamped to min_system_memory..max_system_memory, or heap_size.SERVICE outright): the memory OMERO was told to size its JVMs from, not a figure the host reported; no rule reads it"
	whyIceProperty = "a ZeroC Ice property as the program's configuration lists it (Ice.MessageSizeMax: the largest message Ice accepts, in KB; Ice.ThreadPool.NAME.Size/SizeMax/SizeWarn: a thread pool's sizes, in threads): the program's own limit, no socket buffer and no figure of the host's; no rule reads it"
)

// omeroConfigLine reads line i when it is one "key=value" row of an OMERO configuration
// listing with a jvmcfg key or an Ice property named above, and names it.
func (d *doc) omeroConfigLine(i int) bool {
	prog, name, why, v, ok := omeroConfigRow(d.ls[i].Text)
	if !ok || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, why)
	if name != "" && d.programFigureCount < maxProgramFigureArtifacts {
		d.programFigureCount++
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, map[string]any{"program": prog, name: v, "message": clip(strings.TrimSpace(d.ls[i].Text), 120)})
	}
	return true
}

// omeroConfigRow: the program, the figure's name (empty when the value is no integer, as
// heap_size.blitz=2g), the reason and the figure of row t: the whole line one key, '=' and
// a value without spaces (a sentence or a command holding the key is not the listing).
func omeroConfigRow(t string) (prog, name, why string, v int64, ok bool) {
	t = strings.TrimSpace(t)
	key, val, found := strings.Cut(t, "=")
	if !found || val == "" || strings.ContainsAny(t, " \t") {
		return "", "", "", 0, false
	}
	n, err := strconv.ParseInt(val, 10, 64)
	num := err == nil && n >= 0
	if rest, isJVM := strings.CutPrefix(key, "omero.jvmcfg."); isJVM {
		switch {
		case rest == "system_memory" || rest == "max_system_memory" || rest == "min_system_memory":
			name = rest + "_mb"
		case strings.HasPrefix(rest, "percent.") && len(rest) > len("percent."):
			name = "percent_" + rest[len("percent."):]
		case strings.HasPrefix(rest, "heap_size"):
			num = false // "2g", "512m": jvmcfg's own size syntax; named, no figure
		default:
			return "", "", "", 0, false
		}
		if !num {
			name = ""
		}
		return "omero", name, whyOmeroJVMCfg, n, num || strings.HasPrefix(rest, "heap_size")
	}
	if !num {
		return "", "", "", 0, false
	}
	switch {
	case key == "Ice.MessageSizeMax":
		return "ice", "message_size_max_kb", whyIceProperty, n, true
	case strings.HasPrefix(key, "Ice.ThreadPool.") && (strings.HasSuffix(key, ".SizeMax") || strings.HasSuffix(key, ".SizeWarn") || strings.HasSuffix(key, ".Size")):
		return "ice", "thread_pool_" + strings.ToLower(key[strings.LastIndexByte(key, '.')+1:]), whyIceProperty, n, true
	}
	return "", "", "", 0, false
}
