package artifact

import (
	"strconv"
	"strings"
)

// Metrics, logs and time-series servers' own messages about their own caches, queues and
// buffers (pre-round 13, h13b; each format string checked in the program's source). Each is
// the program's word about a limit of its own (Zabbix's CacheSize and the other shared-memory
// caches, InfluxDB's cache-max-memory-size, Telegraf's metric_buffer_limit and
// allowed_pending_messages, Loki's ingestion rate): named as unread with what it proves,
// never read as the kernel's OOM killer, the host's memory or the kernel's UDP counters.
// syslog-ng's warning that the kernel granted a smaller socket buffer than it asked for
// states the buffer the kernel set; the kernel caps a SO_RCVBUF/SO_SNDBUF request at
// net.core.rmem_max/wmem_max and doubles it (net/core/sock.c sk_setsockopt), so a granted
// size below the request is twice the host's maximum: read as that setting.
//
// Gated: metricsOwnLine returns at once for a line without one of the forms' rare bytes,
// then asks each form's fixed needle with strings.Index. No regexp.

// metricsOwnForms: each message's needle (a fixed part of the program's format string), a
// second fixed part that must follow it ("" for none), whether it is the program's own
// out-of-memory, and what it proves.
var metricsOwnForms = []ownLineForm{
	// Zabbix src/libs/zbxshmem/shmem.c __zbx_shmem_malloc (zbxmemory/memalloc.c
	// __zbx_mem_malloc before 6.4): its shared-memory allocator found no chunk in the cache
	// (info->allow_oom 0): "%s(): out of memory (requested %lu bytes)" then "%s(): please
	// increase %s configuration parameter" (CacheSize, HistoryCacheSize, ValueCacheSize,
	// TrendCacheSize, VMwareCacheSize ...), stats dump, exit.
	{"(): out of memory (requested ", " bytes)", true, "Zabbix's own shared-memory cache is full (zbxshmem/shmem.c __zbx_shmem_malloc: \"out of memory (requested N bytes)\", then \"please increase <CacheSize, HistoryCacheSize, ValueCacheSize, TrendCacheSize ...> configuration parameter\"): the cache's configured size in zabbix_server.conf, allocated at start; the server exits by itself: no kill by the kernel's OOM killer and no statement about the host's free memory; headroom has no reader for Zabbix's log"},
	{"(): please increase ", " configuration parameter", false, "Zabbix names the configuration parameter of its own shared-memory cache that ran out (zbxshmem/shmem.c: \"please increase <CacheSize, HistoryCacheSize, ...> configuration parameter\"): the cache's configured size, not the host's memory"},
	// InfluxDB 1.x tsdb/engine/tsm1/cache.go ErrCacheMemorySizeLimitExceeded: "cache-max-memory-size
	// exceeded: (%d/%d)": a write refused because the in-memory cache of a shard passed its
	// cache-max-memory-size (default 1 GiB); Telegraf's and clients' "partial write: engine: ...".
	{"cache-max-memory-size exceeded", "", false, "InfluxDB refused a write because its own in-memory write cache passed cache-max-memory-size (tsdb/engine/tsm1/cache.go: \"cache-max-memory-size exceeded: (N/LIMIT)\", default 1 GiB; snapshots to disk not keeping up): InfluxDB's configured limit, not the kernel's memory or OOM; headroom has no reader for InfluxDB's log"},
	// Telegraf models/running_output.go writeMetrics: the output's buffer (metric_buffer_limit)
	// overflowed while the output could not write: "Metric buffer overflow; %d metrics have
	// been dropped".
	{"Metric buffer overflow; ", " metrics have been dropped", false, "Telegraf dropped metrics from an output's own buffer (models/running_output.go: \"Metric buffer overflow; N metrics have been dropped\"): the output could not write (its endpoint slow or down) and the buffer passed metric_buffer_limit: Telegraf's own buffer, not a kernel socket buffer and not the kernel's UDP counters"},
	// Telegraf plugins/inputs/statsd: the parser's channel (allowed_pending_messages) full:
	// "statsd message queue full. We have dropped %d messages so far. You may want to increase
	// allowed_pending_messages in the config".
	{"statsd message queue full. We have dropped ", "", false, "Telegraf's statsd input dropped packets it had already read from its socket (plugins/inputs/statsd: \"statsd message queue full. We have dropped N messages so far\"): its own queue (allowed_pending_messages) between the socket and the parser was full: Telegraf's own counter, not the kernel's UDP RcvbufErrors"},
	// Loki pkg/validation/validate.go RateLimitedErrorMsg: "Ingestion rate limit exceeded for
	// user %s (limit: %d bytes/sec) while attempting to ingest '%d' lines totaling '%d' bytes".
	{"Ingestion rate limit exceeded", "", false, "Loki refused a push at its own per-tenant ingestion rate limit (pkg/validation/validate.go: \"Ingestion rate limit exceeded for user X (limit: N bytes/sec)\", ingestion_rate_mb): a configured limit of Loki's, not the kernel's memory or network"},
}

// metricsOwnGate: bytes one of which every form holds ('(' Zabbix's "()", 'x' "exceeded",
// 'M' "Metric", 'q' "queue", 'I' "Ingestion", 'S' syslog-ng's "SO_RCVBUF").
const metricsOwnGate = "(xMqIS"

// metricsOwnLine says why t is one of metricsOwnForms' messages or syslog-ng's buffer
// warning, and whether it is the program's own out-of-memory. A long line is a paragraph
// that quotes one.
func metricsOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes && !jsonLogRecord(t) {
		return "", false, false
	}
	if strings.IndexAny(t, metricsOwnGate) < 0 {
		return "", false, false
	}
	for _, f := range metricsOwnForms {
		if _, _, ok := f.find(t); !ok {
			continue
		}
		return f.why, f.oom, true
	}
	if _, _, ok := sockBufRefused(t); ok {
		return sockBufRefusedWhy, false, true
	}
	return "", false, false
}

const sockBufRefusedWhy = "syslog-ng's warning that the kernel set a smaller socket buffer than its so-rcvbuf()/so-sndbuf() option asked (modules/afsocket: \"The kernel refused to set the receive buffer (SO_RCVBUF) to the requested size\", so_rcvbuf=REQUESTED, so_rcvbuf_set=GRANTED): the kernel caps the request at net.core.rmem_max (wmem_max) and doubles it; no drop by itself (the kernel's UdpRcvbufErrors would count drops)"

// sockBufRefused reads syslog-ng's afsocket warning "The kernel refused to set the receive
// buffer (SO_RCVBUF) to the requested size, ...; so_rcvbuf='R', so_rcvbuf_set='S'" (the send
// buffer's likewise): the sysctl that capped it and the host's value, S/2, when S/2 is below
// the request (the kernel's cap); "" when the values are not both stated.
func sockBufRefused(t string) (key, value string, ok bool) {
	k := strings.Index(t, "The kernel refused to set the ")
	if k < 0 {
		return "", "", false
	}
	rest := t[k+len("The kernel refused to set the "):]
	var tag string
	switch {
	case strings.HasPrefix(rest, "receive buffer (SO_RCVBUF)"):
		key, tag = "net.core.rmem_max", "so_rcvbuf"
	case strings.HasPrefix(rest, "send buffer (SO_SNDBUF)"):
		key, tag = "net.core.wmem_max", "so_sndbuf"
	default:
		return "", "", false
	}
	req, okr := quotedTagInt(rest, tag+"='")
	set, oks := quotedTagInt(rest, tag+"_set='")
	if !okr || !oks || set <= 0 || set%2 != 0 || set/2 >= req {
		return "", "", true // named; no value the kernel's cap decides
	}
	return key, strconv.FormatInt(set/2, 10), true
}

// quotedTagInt: the integer of syslog-ng's evt_tag_int "name='N'" in s.
func quotedTagInt(s, name string) (int64, bool) {
	k := strings.Index(s, name)
	if k < 0 {
		return 0, false
	}
	rest := s[k+len(name):]
	v := leadingDigits(rest)
	if v == "" || !strings.HasPrefix(rest[len(v):], "'") || len(v) > 12 {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// isMetricsTag: the syslog tags of the programs whose messages metricsOwnLine names (their
// daemons' names as their units start them).
func isMetricsTag(tag string) bool {
	switch tag {
	case "zabbix_server", "zabbix_proxy", "telegraf", "influxd", "influxdb", "syslog-ng",
		"loki", "promtail", "sc4s",
		"rsyslogd", "rsyslog", "logstash": // h21b: omfwd's ENOBUFS, Logstash's capped buffer (rcvbufcapped.go)
		return true
	}
	return false
}

// metricsLine: in either pass, line i is one of these programs' own messages: the setting it
// states read (syslog-ng's granted buffer), or the line named as unread.
func (d *doc) metricsLine(i int, t string) bool {
	why, oom, ok := metricsOwnLine(t)
	if !ok {
		return false
	}
	if key, v, _ := sockBufRefused(t); key != "" {
		if key == "net.core.rmem_max" {
			req, _ := quotedTagInt(t, "so_rcvbuf='")
			got, _ := quotedTagInt(t, "so_rcvbuf_set='")
			d.noteRcvbufCapped(req, got, i)
		}
		d.hostValue(key, v, i)
		d.used[i] = true
		return true
	}
	d.programOOMNamed = d.programOOMNamed || oom
	d.unparsedUnread(i, why)
	return true
}

// telegrafLevelHost: a line the syslog splitter took by its RFC 3339 stamp whose "host" is
// Telegraf's level mark ("2026-11-30T02:10:01Z E! [outputs.influxdb] ...": E!, W!, I!, D!,
// T!, logger.go): Telegraf's own log record, no host name ends in '!'.
func telegrafLevelHost(l *Line) bool {
	h := l.Host
	return !l.Kernel && len(h) == 2 && h[1] == '!' && strings.IndexByte("EWIDT", h[0]) >= 0
}
