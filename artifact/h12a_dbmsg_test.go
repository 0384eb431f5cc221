package artifact

import (
	"strings"
	"testing"
)

// h12a: databases', caches' and brokers' own messages, written from the programs' sources
// (format strings quoted in unreaddbmsg.go), not from any case. Each snippet carries a
// realistic prefix (the program's own stamp, docker compose's "name | ", the journal's).

// h12aNamed: every line in want is listed unread with a reason holding its words.
func h12aNamed(t *testing.T, text string, want map[int]string) {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	for no, words := range want {
		ok := false
		for _, u := range tl.Unparsed {
			ok = ok || u.FirstLine <= no && no <= u.LastLine && strings.Contains(u.Why, words)
		}
		if !ok {
			t.Errorf("line %d: want it named with %q; unparsed %+v", no, words, tl.Unparsed)
		}
	}
	if statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Errorf("stated OOM %v, kills %d: a program's own message read as the kernel's OOM", statedOOM(tl), len(f15Kills(tl)))
	}
	checkAccount(t, tl)
}

// The programs' own allocators and memory limits: named as theirs, never a kernel OOM.
func TestH12aOwnMemoryMessagesNamed(t *testing.T) {
	h12aNamed(t, "redis_1  | 1:M 30 Nov 2026 02:14:00.002 # Can't save in background: fork: Cannot allocate memory\n"+
		"redis_1  | 1:M 30 Nov 2026 02:15:00.002 # Background saving terminated by signal 9\n"+
		"redis_1  | 1:M 30 Nov 2026 02:20:02.001 # zmalloc: Out of memory trying to allocate 1048576 bytes\n",
		map[int]string{1: "Redis could not fork", 2: "SIGKILL", 3: "zmalloc"})
	h12aNamed(t, "2026-11-30 02:11:05.123 UTC [1] LOG:  could not fork new process for connection: Cannot allocate memory\n"+
		"2026-11-30 02:11:05.456 UTC [4242] ERROR:  out of memory\n"+
		"2026-11-30 02:11:05.456 UTC [4242] DETAIL:  Failed on request of size 8388608 in memory context \"ExecutorState\".\n"+
		"2026-11-30 02:11:09.001 UTC [1] LOG:  server process (PID 4242) was terminated by signal 9: Killed\n",
		map[int]string{1: "postmaster could not fork", 2: "PostgreSQL's own allocation", 3: "palloc", 4: "the kernel's own kill line"})
	// MySQL 8's own ISO stamp and thread id, which the syslog splitter takes for a host.
	h12aNamed(t, "2026-11-30T02:12:13.123456Z 0 [ERROR] [MY-000000] [Server] Out of memory (Needed 16777216 bytes)\n"+
		"2026-11-30T02:12:14.000000Z 0 [ERROR] [MY-010249] [Server] Can't create a new thread (errno 11); if you are not out of available memory, you can consult the manual for a possible OS-dependent bug\n",
		map[int]string{1: "EE_OUTOFMEMORY", 2: "ER_CANT_CREATE_THREAD"})
	h12aNamed(t, "{\"t\":{\"$date\":\"2026-11-30T02:13:10.000+00:00\"},\"s\":\"F\",  \"c\":\"CONTROL\",  \"id\":23081,   \"ctx\":\"conn9\",\"msg\":\"Out of memory, printing stack and exiting\"}\n",
		map[int]string{1: "MongoDB's operator new"})
	h12aNamed(t, "2026-11-30 02:16:01.123 [info] <0.382.0> vm_memory_high_watermark set. Memory used:7128316368 allowed:6640204185\n"+
		"2026-11-30 02:16:01.124 [warning] <0.375.0> memory resource limit alarm set on node rabbit@mq1.\n",
		map[int]string{1: "vm_memory_monitor", 2: "RabbitMQ's own memory alarm"})
	h12aNamed(t, "2026-11-30T02:19:01,123+0000 [pulsar-io-4-3] WARN  o.a.p.b.s.ServerCnx - io.netty.util.internal.OutOfDirectMemoryError: failed to allocate 16777216 byte(s) of direct memory (used: 4278190080, max: 4294967296)\n",
		map[int]string{1: "netty's own direct-memory counter"})
	h12aNamed(t, "1764468000: Error: Out of memory.\n1764468001: Outgoing messages are being dropped for client sensor-17.\n",
		map[int]string{1: "Mosquitto's", 2: "max_queued_messages"})
	// EMQX's own stamp and bracketed level, likewise taken for a syslog host.
	h12aNamed(t, "2026-11-30T02:18:05.000000+00:00 [warning] msg: alarm_is_activated, message: <<\"System memory usage is higher than 70%\">>, name: high_system_memory_usage\n",
		map[int]string{1: "EMQX's own alarm"})
}

// Limits of descriptors, threads and clients, and brokers' own queues: named, not memory.
func TestH12aOwnLimitMessagesNamed(t *testing.T) {
	h12aNamed(t, "Nov 30 02:10:11 cache1 redis-server[812]: 812:M 30 Nov 2026 02:10:11.124 # Current maximum open files is 4096. maxclients has been reduced to 4064 to compensate for low ulimit. If you need higher maxclients increase 'ulimit -n'.\n",
		map[int]string{1: "maxclients + 32"})
	h12aNamed(t, "[2026-11-30T02:14:01,123][ERROR][o.e.b.Bootstrap          ] [node-1] node validation exception\n"+
		"[1]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]\n",
		map[int]string{2: "not fs.file-max"})
	h12aNamed(t, "[1] 2026/11/30 02:17:00.123456 [INF] 10.0.0.7:51234 - cid:42 - Slow Consumer Detected: WriteDeadline of 10s exceeded with 3 chunks of 196608 total bytes.\n"+
		"[1] 2026/11/30 02:17:02.000000 [ERR] Temporary Client Accept Error (accept tcp [::]:4222: accept4: too many open files), sleeping 10ms\n",
		map[int]string{1: "NATS closed a slow client", 2: "accept failed with EMFILE"})
	h12aNamed(t, "rabbitmq_1  | 2026-11-30 02:16:05.000000+00:00 [error] <0.600.0> Ranch listener {acceptor,{0,0,0,0,0,0,0,0},5672} had connection process started with rabbit_connection_sup:start_link/4 at undefined exit with reason: emfile\n",
		map[int]string{1: "emfile"})
	h12aNamed(t, "2026-11-30 02:21:00,000 WARN  [org.apache.activemq.artemis.core.server] AMQ222183: Blocking message production on address 'orders'; size is currently: 104857600 bytes; max-size-bytes on address: 104857600, global-max-size is 536870912\n",
		map[int]string{1: "ActiveMQ Artemis"})
	h12aNamed(t, "Nov 30 02:12:00 db1 postgres[1202]: [7-1] 2026-11-30 02:12:00.001 UTC [1202] FATAL:  sorry, too many clients already\n",
		map[int]string{1: "max_connections"})
	// Under a data store's tag the shared forms are named too (appHostLine's EMFILE, an errno).
	h12aNamed(t, "Nov 30 02:12:00 db2 mongod[733]: 2026-11-30T02:12:00.001+0000 E NETWORK  [listener] Error accepting new connection on 0.0.0.0:27017: Too many open files\n",
		map[int]string{1: "RLIMIT_NOFILE"})
}

// A start warning that states the host's sysctl value is read as that setting; the
// program's advice in the same line is not.
func TestH12aStatedSysctlRead(t *testing.T) {
	cases := []struct{ text, key, want string }{
		{"1:M 30 Nov 2026 02:10:11.123 # WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.\n", "net.core.somaxconn", "128"},
		{"Nov 30 02:10:11 cache1 redis-server[812]: 812:M 30 Nov 2026 02:10:11.123 # WARNING overcommit_memory is set to 0! Background save may fail under low memory condition. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.\n", "vm.overcommit_memory", "0"},
		{"[2]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]\n", "vm.max_map_count", "65530"},
		{"mongo  | {\"t\":{\"$date\":\"2026-11-30T02:13:00.000+00:00\"},\"s\":\"W\",  \"c\":\"CONTROL\",  \"id\":5123300, \"ctx\":\"initandlisten\",\"msg\":\"vm.max_map_count is too low\",\"attr\":{\"currentValue\":65530,\"recommendedMinimum\":1677720,\"maxConns\":838860},\"tags\":[\"startupWarnings\"]}\n", "vm.max_map_count", "65530"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if got := tl.Host.Sysctls[c.key]; got != c.want {
			t.Errorf("%.60q: %s = %q, want %q (sysctls %v)", c.text, c.key, got, c.want, tl.Host.Sysctls)
		}
		checkAccount(t, tl)
	}
	// Redis 7 states no value (overcommit_memory is not 1): named, and its advice "= 1" is
	// not read as the host's value.
	text := "redis_1    | 1:C 27 Nov 2026 05:47:23.126 # WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.\n"
	tl := ParseString(text, "t", Options{})
	if v, ok := tl.Host.Sysctls["vm.overcommit_memory"]; ok || !f15Unread(tl, "is not 1 on this host") {
		t.Errorf("overcommit_memory %q (set %v), unparsed %+v: want no value and the line named", v, ok, tl.Unparsed)
	}
	for _, a := range tl.Artifacts {
		if sd, ok := a.Data.(SettingData); ok && sd.Value == "1" {
			t.Errorf("Redis's advice read as a setting: %+v", sd)
		}
	}
}

// Counter-cases: other programs' lines, sentences that only name the words, and BSD's key.
func TestH12aNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"I raised the max file descriptors.",
		"the error was not in the buffer pool",
		"we read the memory of the alarm panel",
		"the file emfile.txt",
		"Out Of Memory allocating %zu bytes!",     // the source's format string quoted, no record
		"~s resource limit alarm set on node ~p.", // RabbitMQ's format string
		"Error: Out of memory",                    // no period: not Mosquitto's spelling
		"ERROR: out of memory on the host",        // one space: not PostgreSQL's format
		"Too many open files in the nginx docs",   // EMFILE without Go's ": " (appHostLine's, not here)
		"WARN[0000] Request Failed error=\"Get \\\"http://localhost:3000\\\": dial tcp 127.0.0.1:3000: socket: too many open files\"", // a client's, not a server's accept
	} {
		if why, ok := dbLineWhy(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
	for _, s := range []string{
		"WARNING: The TCP backlog setting of 511 cannot be enforced because kern.ipc.somaxconn is set to the lower value of 128.",
		"max virtual memory areas vm.max_map_count [unknown] is too low",
		"set vm.max_map_count to 262144, it is too low",
	} {
		if k, v, ok := dbStatedSetting(s); ok {
			t.Errorf("%q read as %s=%s", s, k, v)
		}
	}
	// Another program's ISO-stamped syslog line keeps its host and is not searched.
	l := SplitLines("2026-11-30T02:12:13.123456+00:00 web1 nginx[77]: worker 12 exited on signal 9\n")
	if len(l) != 1 || ownStampHost(&l[0]) {
		t.Fatalf("lines %+v: a real host taken for a program's own stamp", l)
	}
	// The kernel's kill line beside PostgreSQL's is still a kill.
	tl := ParseString("2026-11-30 02:11:09.001 UTC [1] LOG:  server process (PID 4242) was terminated by signal 9: Killed\n"+
		"[ 812.000000] Out of memory: Killed process 4242 (postgres) total-vm:9000000kB, anon-rss:8000000kB, file-rss:0kB, shmem-rss:0kB\n", "t", Options{})
	if ks := f15Kills(tl); len(ks) != 1 {
		t.Fatalf("kills %+v, want the kernel's kill", ks)
	}
}
