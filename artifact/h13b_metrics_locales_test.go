package artifact

import (
	"testing"

	"headroom/model"
)

// Pre-round 13 (h13b): metrics, logs and time-series servers' own messages (unreadmetrics.go)
// and procps-ng's tables and kernel lines under other locales (free_locales.go,
// top_locales.go, leadinstamp.go). Snippets written for each class from the programs'
// format strings and procps-ng's po/ translations; none copied from a case.

// A metrics or log server's own cache, buffer or queue message is named as the program's:
// no OOM stated or killed, no kernel counter, in its own log forms and under its tag.
func TestH13bMetricsOwnMessagesNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"  1234:20261130:021001.123 [file:dbconfig.c,line:1234] __zbx_shmem_malloc(): out of memory (requested 16 bytes)\n", "Zabbix's own shared-memory cache"},
		{"Nov 30 02:10:01 mon01 zabbix_server[1234]: 1234:20261130:021001.123 [file:dbconfig.c,line:1234] __zbx_mem_malloc(): please increase CacheSize configuration parameter\n", "configuration parameter of its own"},
		{"influxdb  | ts=2026-11-30T02:10:01.123456Z lvl=info msg=\"Write failed\" service=write shard=12 error=\"engine: cache-max-memory-size exceeded: (1074767264/1073741824)\"\n", "cache-max-memory-size"},
		{"2026-11-30T02:10:02Z W! [outputs.influxdb] Metric buffer overflow; 3378 metrics have been dropped\n", "metric_buffer_limit"},
		{"2026-11-30T02:10:01Z E! Error: statsd message queue full. We have dropped 1000 messages so far. You may want to increase allowed_pending_messages in the config\n", "allowed_pending_messages"},
		{"Nov 30 02:10:01 mon01 telegraf[900]: 2026-11-30T02:10:02Z W! [outputs.influxdb] Metric buffer overflow; 12 metrics have been dropped\n", "metric_buffer_limit"},
		{"level=warn ts=2026-11-30T02:10:01.123Z caller=push.go:120 msg=\"push failed\" err=\"Ingestion rate limit exceeded for user fake (limit: 4194304 bytes/sec) while attempting to ingest '1000' lines totaling '1048576' bytes\"\n", "ingestion rate limit"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !f15Unread(tl, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: unparsed %+v stated %v kills %d: want named (%s), no OOM", c.text, tl.Unparsed, statedOOM(tl), len(f15Kills(tl)), c.word)
		}
		checkAccount(t, tl)
	}
	// A title over Zabbix's own out-of-memory is about that message, not the host's.
	tl := ParseString("# Zabbix server out of memory after upgrade\n  1234:20261130:021001.123 [file:dbconfig.c,line:1234] __zbx_shmem_malloc(): out of memory (requested 16 bytes)\n", "t", Options{})
	if statedOOM(tl) {
		t.Errorf("a title over Zabbix's own out-of-memory read as the host's OOM")
	}
	// Counters: sentences that only share the words, a %s format string's neighbour, another
	// program's "out of memory", the kernel's kill line beside Zabbix's still a kill.
	for _, s := range []string{
		"the metric buffer overflowed yesterday",
		"we increased the cache size configuration",
		"the server ran out of memory (requested by the app)",
		"InfluxDB's cache filled up and the ingestion rate dropped",
	} {
		if why, _, ok := metricsOwnLine(s); ok {
			t.Errorf("%q named as a program's message: %s", s, why)
		}
	}
	tl = ParseString("[ 8812.123456] Out of memory: Killed process 1234 (zabbix_server) total-vm:812345kB, anon-rss:512000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1200kB oom_score_adj:0\n  1234:20261130:021001.123 [file:dbconfig.c,line:1234] __zbx_shmem_malloc(): out of memory (requested 16 bytes)\n", "t", Options{})
	if len(f15Kills(tl)) != 1 {
		t.Errorf("the kernel's kill line beside Zabbix's message: %d kills, want 1", len(f15Kills(tl)))
	}
}

// syslog-ng's afsocket warning states the socket buffer the kernel granted: below the
// request it is twice net.core.rmem_max (wmem_max for SO_SNDBUF), read as the host's value.
func TestH13bSyslogNgGrantedBufferRead(t *testing.T) {
	for _, c := range []struct{ text, key, want string }{
		{"sc4s  | The kernel refused to set the receive buffer (SO_RCVBUF) to the requested size, you probably need to adjust buffer related kernel parameters; so_rcvbuf='1703936', so_rcvbuf_set='425984'\n", "net.core.rmem_max", "212992"},
		{"Nov 30 02:10:01 log01 syslog-ng[812]: The kernel refused to set the send buffer (SO_SNDBUF) to the requested size, you probably need to adjust buffer related kernel parameters; so_sndbuf='8388608', so_sndbuf_set='4194304'\n", "net.core.wmem_max", "2097152"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if v := tl.Host.Sysctls[c.key]; v != c.want {
			t.Errorf("%q: %s = %q, want %q (unparsed %+v)", c.text, c.key, v, c.want, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	// Counters: no granted value stated, a granted value not below the request (not the
	// cap), an odd value (not the kernel's doubling): named, no value read.
	for _, s := range []string{
		"The kernel refused to set the receive buffer (SO_RCVBUF) to the requested size, you probably need to adjust buffer related kernel parameters\n",
		"The kernel refused to set the receive buffer (SO_RCVBUF) to the requested size, you probably need to adjust buffer related kernel parameters; so_rcvbuf='1000', so_rcvbuf_set='2304'\n",
		"The kernel refused to set the receive buffer (SO_RCVBUF) to the requested size, you probably need to adjust buffer related kernel parameters; so_rcvbuf='1703936', so_rcvbuf_set='425985'\n",
	} {
		tl := ParseString(s, "t", Options{})
		if v, ok := tl.Host.Sysctls["net.core.rmem_max"]; ok || !f15Unread(tl, "syslog-ng's warning") {
			t.Errorf("%q: rmem_max %q (set %v), unparsed %+v: want named, no value", s, v, ok, tl.Unparsed)
		}
	}
}

// free under procps-ng's ko, uk, sv and es translations (po/*.po msgstr of free.c's header
// and rows; Korean's rows with a space inside the word) is read like the English table.
func TestH13bFreeLocalized(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"ko", "$ free -m\n               총계         사용        여분      공유    버퍼/캐시    가용\n메모리:        15885        14900         180          20         805         600\n스  왑:         2047         2047           0\n"},
		{"ko old", "$ free -m\n               총계         사용        여분      공유       버퍼          캐시    가용\n메모리:        15885        14900         180          20         405         400         600\n스  왑:         2047         2047           0\n총  계:        17932        16947         180\n"},
		{"uk", "$ free -m\n               загалом      використ.   вільна    спільна буфери/кеш   дост.\nПам.:          15885        14900         180          20         805         600\nСвоп.:          2047         2047           0\n"},
		{"sv", "$ free -m\n              totalt      använt       fritt       delat  buff/cache  tillgängl.\nMinne:         15885        14900         180          20         805         600\nVäxl.:          2047         2047           0\n"},
		{"es", "$ free -m\n               total       usado       libre  compartido   búf/caché  disponible\nMem:           15885        14900         180          20         805         600\nInter:          2047         2047           0\n"},
		{"zh -t", "$ free -m -t\n                总计        已用        空闲        共享   缓冲/缓存        可用\n内存：        15885        14900         180          20         805         600\n交换：         2047         2047           0\n总计：         17932        16947         180\n"},
	} {
		tl := ParseString(c.text, c.name, Options{})
		tb := lastArtifact[*FreeTable](tl, KindFree)
		if tb == nil || tb.Unit != "MiB" || len(tb.Rows["Mem"]) == 0 || tb.Rows["Mem"][0] != 15885*1024 || len(tb.Rows["Swap"]) == 0 || tb.Rows["Swap"][0] != 2047*1024 {
			t.Errorf("%s: free table %+v, unparsed %+v: want Mem 15885 MiB, Swap 2047 MiB", c.name, tb, tl.Unparsed)
			continue
		}
		checkAccount(t, tl)
	}
	// Counters: a row name the table does not know ends it, `ls -l`'s "total 48" is no header.
	tl := ParseString("total 48\n-rw-r--r-- 1 root root 120 Nov 30 02:10 a\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindFree {
			t.Errorf("ls -l read as free: %+v", a.Data)
		}
	}
	if _, ok := freeRowNameSpaced("a b"); ok {
		t.Errorf("\"a b\" taken for a row name")
	}
}

// top's summary under procps-ng's zh_CN, ko and uk translations is read with its unit.
func TestH13bTopLocalized(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"zh_CN", "top - 10:21:33 up 12 days,  3:02,  1 user,  load average: 4.12, 3.98, 3.80\n任务: 312 总共,   2 运行中, 310 睡眠,   0 不可中断睡眠,   0 已停止,   0 僵尸\n%Cpu(s):  5.2 us,  3.1 sy,  0.0 ni, 90.1 id,  1.2 wa,  0.0 hi,  0.4 si,  0.0 st\nMiB 内存:  15885.0 总共,    180.0 空闲,  14900.0 已用,    805.0 缓冲/缓存\nMiB 交换:   2048.0 总共,      0.0 空闲,   2048.0 已用.    600.0 可用 内存\n"},
		{"ko", "top - 10:21:33 up 12 days,  3:02,  1 user,  load average: 4.12, 3.98, 3.80\n%Cpu(s):  5.2 us,  3.1 sy,  0.0 ni, 90.1 id,  1.2 wa,  0.0 hi,  0.4 si,  0.0 st\nMiB 메모리 :  15885.0 총계,    180.0 잔여,  14900.0 사용,    805.0 버퍼/캐시\nMiB 스  왑:   2048.0 총계,      0.0 잔여,   2048.0 사용.    600.0 가용  메모리\n"},
		{"uk", "top - 10:21:33 up 12 days,  3:02,  1 user,  load average: 4.12, 3.98, 3.80\nMiB Пам :  15885.0 загал,    180.0 вільн,  14900.0 вик,    805.0 буф/кеш\nMiB Своп:   2048.0 загал,      0.0 віль,   2048.0 вико.    600.0 дост. Пам\n"},
	} {
		tl := ParseString(c.text, c.name, Options{})
		ts := lastArtifact[*TopSummary](tl, KindTop)
		if ts == nil || ts.MemKB["total"] != 15885*1024 || ts.MemKB["free"] != 180*1024 || ts.SwapKB["avail"] != 600*1024 {
			t.Errorf("%s: top %+v, unparsed %+v: want Mem total 15885 MiB, free 180, avail 600", c.name, ts, tl.Unparsed)
			continue
		}
		checkAccount(t, tl)
	}
	// Counters: English stays as it is; a sentence with a translated label is no top line.
	for _, s := range []string{"MiB Mem :  15885.0 total", "内存: 服务器内存不够用了，总共 16G", "交换: 2048 总共"} {
		if got := topEnglish(s); got != s {
			t.Errorf("%q rewritten as %q", s, got)
		}
	}
}

// A stamped kernel line after a lead-in that names dmesg and ends in a colon (ASCII or
// full-width), in any language, is the quoted record, not a command searching for it.
func TestH13bKernelLineAfterLeadIn(t *testing.T) {
	for _, s := range []string{
		"В dmesg постоянно: [ 1234.567890] nf_conntrack: nf_conntrack: table full, dropping packet\n",
		"dmesg 里看到：[ 1234.567890] TCP: out of memory -- consider tuning tcp_mem\n",
		"dmesg에 이렇게 나옵니다: [ 1234.567890] TCP: out of memory -- consider tuning tcp_mem\n",
	} {
		tl := ParseString(s, "t", Options{})
		if tl.Log.Len() != 1 {
			t.Errorf("%q: %d kernel log records, want 1", s, tl.Log.Len())
		}
	}
	// Counters: a search command stays a search (its pattern is no record).
	for _, s := range []string{
		"dmesg | grep ': [ 1234.567890] TCP: out of memory -- consider tuning tcp_mem'",
		"dmesg -T | grep 'TCP: out of memory'",
		"dmesg: TCP: out of memory -- consider tuning tcp_mem",
		"dmesg 里看到: [1234.5] TCP",
	} {
		if stampAfterLeadIn(s) {
			t.Errorf("%q taken for a lead-in before a stamped line", s)
		}
	}
}

// sar's rows under zh_CN's and ko_KR's time format (glibc t_fmt "%H时%M分%S秒", "%H시 %M분
// %S초"; sysstat prints %X) are read like ja_JP's.
func TestH13bSarLocalizedTime(t *testing.T) {
	head := "$ sar -r 1 2\nLinux 5.15.0-91-generic (db01) \t2026年11月30日 \t_x86_64_\t(8 CPU)\n\n"
	cols := " kbmemfree   kbavail kbmemused  %memused kbbuffers  kbcached  kbcommit   %commit  kbactive   kbinact   kbdirty\n"
	row := "    184320    614400  15523840     95.50     20480    593920  30000000    150.00  12000000   2000000      1024\n"
	for _, stamp := range []func(s int) string{
		func(s int) string { return "10时21分0" + string(rune('0'+s)) + "秒" },
		func(s int) string { return "10시 21분 0" + string(rune('0'+s)) + "초" },
	} {
		text := head + stamp(1) + cols + stamp(2) + row + stamp(3) + row
		tl := ParseString(text, "t", Options{})
		if len(tl.Samples) == 0 || NothingRead(tl) {
			t.Errorf("%q: no sample, unparsed %+v", stamp(1), tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	// Counter: a sentence starting with a time in words is no row.
	if st, _ := sysstatStamp("10时21分01秒"); st != "" {
		t.Errorf("a time alone taken for a row's stamp: %q", st)
	}
}

// lastArtifact is the data of the last artifact of kind k in tl, the zero T without one.
func lastArtifact[T any](tl *model.Timeline, k string) T {
	var v T
	for _, a := range tl.Artifacts {
		if a.Kind == k {
			v = a.Data.(T)
		}
	}
	return v
}
