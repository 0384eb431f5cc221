package artifact

import (
	"strings"
	"testing"
)

// Elasticsearch's node stats pasted as indented JSON, a fragment cut mid-object (corpus 2524,
// 2525). Before: exit 3, "nothing is evidence".
func TestFix29bESNodeStats(t *testing.T) {
	text := "```json\n" +
		"            \"swap\": {\n" +
		"               \"used_in_bytes\": 0,\n" +
		"               \"free_in_bytes\": 11161038848\n" +
		"            }\n" +
		"         },\n" +
		"         \"process\": {\n" +
		"            \"open_file_descriptors\": 4889,\n" +
		"            \"mem\": {\n" +
		"               \"resident_in_bytes\": 1148645376,\n"
	tl := ParseString(text, "p", Options{})
	var got *ESNodeStats
	for _, a := range tl.Artifacts {
		if a.Kind == KindESNodeStats {
			s := a.Data.(ESNodeStats)
			got = &s
		}
	}
	if got == nil {
		t.Fatalf("no %s artifact: %+v unparsed %+v", KindESNodeStats, tl.Artifacts, tl.Unparsed)
	}
	for k, want := range map[string]int64{"swap.used_in_bytes": 0, "swap.free_in_bytes": 11161038848, "process.open_file_descriptors": 4889, "process.mem.resident_in_bytes": 1148645376} {
		if v, ok := got.Values[k]; !ok || v != want {
			t.Errorf("%s = %d %v, want %d (%v)", k, v, ok, want, got.Values)
		}
	}
	// Counter-cases: another program's JSON (no Elasticsearch key), a sentence naming the
	// keys, a JSON with _in_bytes keys but none of node stats' own.
	for name, c := range map[string]string{
		"docker":   "{\n  \"memory_stats\": {\n    \"usage\": 501346304,\n    \"limit\": 524288000,\n    \"max_usage\": 524292096\n  }\n}\n",
		"sentence": "The node reported \"open_file_descriptors\": 4889 and swap used_in_bytes 0 in its stats.\n",
		"other":    "  \"store\": {\n    \"size_in_bytes\": 123456,\n    \"reserved_in_bytes\": 0,\n    \"count\": 3\n  }\n",
	} {
		tl := ParseString(c, "p", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindESNodeStats {
				t.Errorf("%s: read as node stats: %+v", name, a.Data)
			}
		}
	}
}

// A Java record with its stack trace glued onto the line by a web page, longer than a log
// line (corpus 2539). Before: exit 3, the line too long to be a record.
func TestFix29bJavaGluedTraceErrno(t *testing.T) {
	frames := "at sun.nio.ch.ServerSocketChannelImpl.accept0(Native Method)at sun.nio.ch.ServerSocketChannelImpl.accept(ServerSocketChannelImpl.java:241)at org.apache.catalina.tribes.transport.nio.NioReceiver.listen(NioReceiver.java:289)at org.apache.catalina.tribes.transport.nio.NioReceiver.run(NioReceiver.java:420)at java.lang.Thread.run(Thread.java:745)"
	rec := "17-Jan-2017: 08:33:50: [NioReceiver] ERROR org.apache.catalina.tribes.transport.nio.NioReceiver - Unable to process request in NioReceiverjava.io.IOException: Too many open files"
	line := rec + frames + frames
	if len(line) <= maxErrnoLineBytes {
		t.Fatalf("snippet %d bytes, not past the cap", len(line))
	}
	if why, ok := errnoLogLine(line); !ok || !strings.Contains(why, "EMFILE") {
		t.Errorf("glued record: %q %v", why, ok)
	}
	// Counter-cases: the same words in a long paragraph (frames with spaces before "at"), a
	// glued frame with no exception before it.
	prose := "We keep getting Too many open files from the receiver at random times and " + strings.Repeat("the server stops answering at night and we restart it, ", 10) + "see at java.lang.Thread.run(Thread.java:745) for the trace."
	if why, ok := errnoLogLine(prose); ok {
		t.Errorf("prose read: %q", why)
	}
	noExc := strings.Repeat("Too many open files in the logs, ", 14) + "see" + frames
	if why, ok := errnoLogLine(noExc); ok {
		t.Errorf("no exception: %q", why)
	}
}
