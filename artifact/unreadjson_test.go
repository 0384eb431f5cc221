package artifact

import "testing"

// A JSON memory object's byte counts are listed as unread: the text is evidence.
func TestJSONStatObjectUnread(t *testing.T) {
	text := "Our dashboard shows this for the host:\n{\n  \"mem\": {\n    \"total\": 8589934592,\n" +
		"    \"free\": 1073741824,\n    \"percent\": 87.5,\n    \"swap_used\": 0\n  }\n}\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 4 || tl.Unparsed[0].LastLine != 7 || tl.Unparsed[0].Why != jsonStatWhy {
		t.Fatalf("unparsed %+v, want lines 4-7 as a JSON statistics object", tl.Unparsed)
	}
	checkAccount(t, tl)
}

// JSON of another domain stays prose: a config's port and timeout, keys as words.
func TestJSONStatObjectNotFromOtherJSON(t *testing.T) {
	for _, text := range []string{
		"{\n  \"port\": 8080,\n  \"timeout\": 30\n}\n",
		"The \"total\": 12 apples we counted.\n",
		"{\n  \"name\": \"free\",\n  \"total\": \"many\"\n}\n",
	} {
		if tl := ParseString(text, "t", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v, want prose", text, tl.Unparsed)
		}
	}
}
