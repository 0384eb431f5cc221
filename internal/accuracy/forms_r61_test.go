package main

// Rounds 61 and 62: losses under a form that are limits of the form, each with its reason
// (9; two new kinds).
const (
	limitTwoRowsDoubleSpaced  = "two raw softnet_stat rows with a blank line between them: a double-spaced paste of two CPUs' rows and two readings of a one-CPU host look alike (undoubleSpace tells the form from at least doubleSpacedLines lines of text, and two are fewer), so the second row is read as a later reading of the first CPU and its time_squeeze as growth"
	limitTabbedExportUntabbed = "a log viewer's tab-separated export (time, host, tag, message; stripTabbedSyslog) is told by its tabs: with them turned into spaces, 'DD.MM.YY HH:MM host kernel [stamp] message' is a stamp no syslog daemon writes, and the kernel's record is not told from the words around it"
)

func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 6141-redhat-kb-45412-sar-pswpout-3371-per-s-memused-99.54-swpused-100pct-buffers-cache-38m-of-32g", limitFlattenedBlock},
		{"flattened 6261-lede-9881-zh-2022-mt7621-hwnat-proc-net-dev-lan2-drop-1045565-of-6992723-wan-62178933-packets-undercount", limitFlattenedBlock},
		{"flattened 6351-hiboma-ja-md-net-backlog3-soft-net-cpu1-squeezed-20694888-ethtool-S-eth1-rx-missed-1228956027-rx-no-buffer-830920320-alloc-rx-buff-failed-2000", limitFlattenedBlock},
		{"flattened 6464-k8s-62334-2018-gke-node-tcp-out-of-memory-sockstat-tcp-mem-87916-over-tcp-mem-max-86514-alloc-863-inuse-24-kubelet-ready", limitFlattenedBlock},
		{"flattened 6477-docker-for-linux-304-2018-18.03.1-ce-laptop-log-viewer-tsv-libcontainerd-new-containerd-process-restarts-dockerd-invoked-oom-killer-cut", limitFlattenedOneStamp},
		{"cut-last-line 6477-docker-for-linux-304-2018-18.03.1-ce-laptop-log-viewer-tsv-libcontainerd-new-containerd-process-restarts-dockerd-invoked-oom-killer-cut", limitCutLastLine},
		{"tabs-to-spaces 6477-docker-for-linux-304-2018-18.03.1-ce-laptop-log-viewer-tsv-libcontainerd-new-containerd-process-restarts-dockerd-invoked-oom-killer-cut", limitTabbedExportUntabbed},
		{"squashed-spaces 6477-docker-for-linux-304-2018-18.03.1-ce-laptop-log-viewer-tsv-libcontainerd-new-containerd-process-restarts-dockerd-invoked-oom-killer-cut", limitTabbedExportUntabbed},
		{"double-spaced-quoted 6384-hotsos-fake-data-vault-proc-net-softnet-stat-raw-hex-2-cpus-processed-78.5m-squeeze-40-and-85-dropped-0-healthy", limitTwoRowsDoubleSpaced},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
