package kernel

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"strings"
)

// Availability is whether a kernel offers a feature: known only when a file said so.
type Availability string

const (
	Available   Availability = "available"
	Unavailable Availability = "unavailable"
	Unknown     Availability = "" // nothing read said either way: "not checked", never "absent"
)

// QdiscAvailability says whether the kernel under root can create the queueing discipline
// name ("fq", "fq_codel"), and which file said so. The qdisc is a module (sch_NAME.ko,
// net/sched/sch_NAME.c) or built in (CONFIG_NET_SCH_NAME=y):
//
//   - /sys/module/sch_NAME exists while the module is loaded (or built in with parameters);
//   - /proc/config.gz (CONFIG_IKCONFIG_PROC) lists CONFIG_NET_SCH_NAME=y or =m, and a kernel
//     whose configuration lacks the option, or says "is not set", cannot create it;
//   - /lib/modules/RELEASE/modules.builtin or modules.dep name sch_NAME.ko.
//
// Without any of these files the answer is Unknown. release is the kernel release (uname -r)
// for /lib/modules; "" skips it.
func QdiscAvailability(root Root, release, name string) (Availability, string) {
	mod := "sch_" + name
	if _, err := root.ReadDir("sys/module/" + mod); err == nil {
		return Available, "/sys/module/" + mod
	}
	if release != "" {
		for _, f := range []string{"modules.builtin", "modules.dep"} {
			p := "lib/modules/" + release + "/" + f
			if b, err := root.ReadFile(p); err == nil && bytes.Contains(b, []byte("/"+mod+".ko")) {
				return Available, "/" + p
			}
		}
	}
	if b, err := root.ReadFile("proc/config.gz"); err == nil {
		if a, ok := configOption(b, "CONFIG_NET_SCH_"+strings.ToUpper(name)); ok {
			return a, "/proc/config.gz"
		}
	}
	return Unknown, ""
}

// configOption reads one option from a gzipped kernel .config: =y or =m is Available, "is
// not set" or a configuration without the option is Unavailable. ok is false when the data is
// not a readable configuration.
func configOption(gz []byte, option string) (Availability, bool) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return Unknown, false
	}
	// A .config is a few hundred kB; more is not a configuration.
	sc := bufio.NewScanner(io.LimitReader(zr, 16<<20))
	sc.Buffer(make([]byte, 4096), 1<<16)
	seen := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "CONFIG_") {
			seen = true
		}
		if v, ok := strings.CutPrefix(line, option+"="); ok {
			if v == "y" || v == "m" {
				return Available, true
			}
			return Unavailable, true
		}
		if line == "# "+option+" is not set" {
			return Unavailable, true
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Unknown, false
	}
	if !seen {
		return Unknown, false
	}
	return Unavailable, true
}
