package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFrom(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-29T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	in := from("", bi, true)
	if in.Version != "devel" || in.Revision != "abc123" || in.Time != "2026-11-29T01:00:00Z" || !in.Modified || in.GoVersion != "go1.26.0" {
		t.Fatalf("from(devel build) = %+v", in)
	}
	if s := in.String(); !strings.Contains(s, "headroom devel (revision abc123+modified, 2026-11-29T01:00:00Z) go1.26.0 ") {
		t.Errorf("String() = %q", s)
	}
	// The -X version set by make release wins over the module version.
	if in := from("v1.2.0-3-gabc123", &debug.BuildInfo{Main: debug.Module{Version: "v1.1.0"}}, true); in.Version != "v1.2.0-3-gabc123" {
		t.Errorf("ldflags version lost: %+v", in)
	}
	if in := from("", &debug.BuildInfo{Main: debug.Module{Version: "v1.1.0"}}, true); in.Version != "v1.1.0" {
		t.Errorf("module version lost: %+v", in)
	}
	if in := from("", nil, false); in.Version != "devel" || in.GoVersion == "" || in.OS == "" || in.Arch == "" {
		t.Errorf("no build info: %+v", in)
	}
}
