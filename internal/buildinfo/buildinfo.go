// Package buildinfo says which build of headroom is running, so that a report, a recording,
// a capture or a scrape names the build that wrote it.
//
// The version is set by `make release` from `git describe` with
//
//	-ldflags "-X headroom/internal/buildinfo.version=v1.2.3 -X ...revision=SHA -X ...commitTime=RFC3339"
//
// The VCS revision and time come from what the go command stamps into every binary built in
// a git work tree (runtime/debug.ReadBuildInfo, -buildvcs=auto), else from those -X values.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version, revision and commitTime are set at link time by make release (-X); empty in a
// plain `go build`. revision and commitTime are used only when the go command did not
// stamp the VCS state (GOFLAGS=-buildvcs=false, or a git work tree it does not recognise).
var version, revision, commitTime string

// Info is the build of this binary.
type Info struct {
	// Version is the release (git describe) or the module version; "devel" for a
	// development build.
	Version string `json:"version"`
	// Revision is the VCS commit the binary was built from; empty when the build had no VCS
	// information (go test, -buildvcs=false, a source tarball).
	Revision string `json:"revision,omitempty"`
	// Time is the commit time of Revision (RFC 3339), not the build time, so that a
	// rebuild of the same commit is the same build.
	Time string `json:"time,omitempty"`
	// Modified: the work tree had uncommitted changes.
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
}

// Get returns this binary's build.
func Get() Info {
	bi, ok := debug.ReadBuildInfo()
	in := from(version, bi, ok)
	if in.Revision == "" {
		in.Revision, in.Time = revision, commitTime
	}
	return in
}

func from(ldVersion string, bi *debug.BuildInfo, ok bool) Info {
	in := Info{Version: ldVersion, GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if ok && bi != nil {
		if bi.GoVersion != "" {
			in.GoVersion = bi.GoVersion
		}
		if in.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			in.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Revision = s.Value
			case "vcs.time":
				in.Time = s.Value
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	if in.Version == "" {
		in.Version = "devel"
	}
	return in
}

// String is the one line of `headroom --version`:
//
//	headroom v1.2.0 (revision 0123abcd…, 2026-11-29T01:00:00Z) go1.26.0 linux/amd64
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "headroom %s", in.Version)
	if in.Revision != "" {
		rev := in.Revision
		if in.Modified {
			rev += "+modified"
		}
		fmt.Fprintf(&b, " (revision %s", rev)
		if in.Time != "" {
			fmt.Fprintf(&b, ", %s", in.Time)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s/%s", in.GoVersion, in.OS, in.Arch)
	return b.String()
}
