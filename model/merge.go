package model

import "strings"

// Merge joins timelines of several pasted texts into one, in order: samples and segments are
// concatenated (segment indexes shifted, a break between texts), everything else appended. Host facts are taken
// from the first timeline that has each one. Sources that carry line numbers keep them; the
// artifact and evidence sources already name their file.
func Merge(tls ...*Timeline) *Timeline {
	out := &Timeline{}
	var names []string
	for _, t := range tls {
		if t == nil {
			continue
		}
		if out.Source.Kind == "" {
			out.Source.Kind = t.Source.Kind
		}
		names = append(names, t.Source.Name)
		mergeHost(&out.Host, &t.Host)
		off := len(out.Samples)
		if off > 0 && len(t.Samples) > 0 {
			out.Breaks = append(out.Breaks, off) // another text: its counters do not continue these
		}
		for _, b := range t.Breaks {
			out.Breaks = append(out.Breaks, b+off)
		}
		for _, b := range t.OtherHost {
			out.OtherHost = append(out.OtherHost, b+off)
		}
		out.Samples = append(out.Samples, t.Samples...)
		for _, s := range t.Segments {
			s.First += off
			s.Last += off
			out.Segments = append(out.Segments, s)
		}
		for _, m := range t.Markers {
			m.Index += off
			out.Markers = append(out.Markers, m)
		}
		out.Events = append(out.Events, t.Events...)
		out.Log.AppendLog(t.Log)
		out.Settings = append(out.Settings, t.Settings...)
		out.Profiles = append(out.Profiles, t.Profiles...)
		out.SlabTables = append(out.SlabTables, t.SlabTables...)
		out.RouteCacheCounts = append(out.RouteCacheCounts, t.RouteCacheCounts...)
		out.ZoneFragments = append(out.ZoneFragments, t.ZoneFragments...)
		out.MemDumps = append(out.MemDumps, t.MemDumps...)
		out.KubeletSignals = append(out.KubeletSignals, t.KubeletSignals...)
		out.CgroupMemory = append(out.CgroupMemory, t.CgroupMemory...)
		out.Beancounters = append(out.Beancounters, t.Beancounters...)
		out.NodeConditions = append(out.NodeConditions, t.NodeConditions...)
		out.RuntimeOOMs = append(out.RuntimeOOMs, t.RuntimeOOMs...)
		out.UDPSockets = append(out.UDPSockets, t.UDPSockets...)
		out.ProgramListenFulls = append(out.ProgramListenFulls, t.ProgramListenFulls...)
		out.ProgramBacklogs = append(out.ProgramBacklogs, t.ProgramBacklogs...)
		if out.ZFSARC == nil {
			out.ZFSARC = t.ZFSARC
		}
		out.Artifacts = append(out.Artifacts, t.Artifacts...)
		out.Unparsed = append(out.Unparsed, t.Unparsed...)
		out.ReadInPart = append(out.ReadInPart, t.ReadInPart...)
		if len(t.ReadInPart) > 0 {
			out.UnparsedLeft = append(out.UnparsedLeft, t.UnparsedLeft...)
		} else {
			out.UnparsedLeft = append(out.UnparsedLeft, t.Unparsed...)
		}
		out.NotAvailable = append(out.NotAvailable, t.NotAvailable...)
	}
	out.Source.Name = strings.Join(names, ", ")
	return out
}

func mergeHost(dst, src *Host) {
	if dst.Hostname == "" {
		dst.Hostname = src.Hostname
	}
	if dst.BootID == "" {
		dst.BootID = src.BootID
	}
	if dst.Kernel == "" {
		dst.Kernel = src.Kernel
	}
	if dst.Arch == "" {
		dst.Arch = src.Arch
	}
	if dst.WordBits == 0 {
		dst.WordBits = src.WordBits
	}
	if dst.HighMem == nil {
		dst.HighMem = src.HighMem
	}
	if dst.PageSize == 0 {
		dst.SetPageSize(src.PageSize)
	}
	if dst.MemTotalKB == 0 {
		dst.MemTotalKB = src.MemTotalKB
	}
	if dst.LowTotalKB == 0 {
		dst.LowTotalKB = src.LowTotalKB
	}
	if dst.CPUs == 0 {
		dst.CPUs = src.CPUs
	}
	dst.NICs = append(dst.NICs, src.NICs...)
	for k, v := range src.Sysctls {
		if dst.Sysctls == nil {
			dst.Sysctls = map[string]string{}
		}
		if _, ok := dst.Sysctls[k]; !ok {
			dst.Sysctls[k] = v
			if s, ok := src.SysctlSource[k]; ok {
				if dst.SysctlSource == nil {
					dst.SysctlSource = map[string]string{}
				}
				dst.SysctlSource[k] = s
			}
		}
	}
}
