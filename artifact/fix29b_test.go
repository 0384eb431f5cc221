package artifact

import "testing"

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
