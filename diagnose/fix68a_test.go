package diagnose

import (
	"strings"
	"testing"
)

// g283 (the cgroups list, 2020): a memory cgroup's own memory.pressure, as `grep .
// memory.*` prints it (6505) or under the file's name (6514). Its stall is the cgroup's
// tasks', judged as a warning with no host setting proposed, and never taken for the host's
// /proc/pressure/memory, whose full average above 5% stays critical.
func TestFix68aCgroupMemoryPressure(t *testing.T) {
	const grep = "memory.current:2147225600\nmemory.high:2147483648\n" +
		"memory.pressure:some avg10=90.42 avg60=72.59 avg300=78.30 total=298252577711\n" +
		"memory.pressure:full avg10=90.32 avg60=72.53 avg300=78.24 total=295658626500\n" +
		"memory.stat:anon 10887168\nmemory.stat:file 2062102528\n"
	const named = "system/backup/memory.pressure\n" +
		"    some avg10=41.73 avg60=45.97 avg300=56.27 total=3385780085\n" +
		"    full avg10=21.78 avg60=18.15 avg300=25.35 total=1571263731\n"
	for name, text := range map[string]string{"grep": grep, "named": named, "cat": "$ cat /sys/fs/cgroup/web.slice/memory.pressure\n" + named[len("system/backup/memory.pressure\n"):]} {
		d, _ := rootOf(t, text)
		f := findingOf(d, "direct-reclaim-stalls")
		if f == nil || f.Severity != Warning || !evidenceHas(*f, "PSI memory of ", "full avg10") || len(f.Changes) != 0 {
			t.Errorf("%s: a cgroup's stall: %+v", name, f)
			continue
		}
		if !strings.Contains(f.Evidence[0].What, "not the host's") {
			t.Errorf("%s: evidence not marked as the cgroup's: %q", name, f.Evidence[0].What)
		}
	}
	if d, _ := rootOf(t, named); !evidenceHas(*findingOf(d, "direct-reclaim-stalls"), "cgroup system/backup", "21.78") {
		t.Errorf("the cgroup's directory is not named")
	}
	// The host's file is the host's: critical, and the cgroup reading is not it.
	host := "/proc/pressure/memory\nsome avg10=41.73 avg60=45.97 avg300=56.27 total=3385780085\nfull avg10=21.78 avg60=18.15 avg300=25.35 total=1571263731\n"
	d, _ := rootOf(t, host)
	if f := findingOf(d, "direct-reclaim-stalls"); f == nil || f.Severity != Critical || evidenceHas(*f, "PSI memory of ", "") {
		t.Errorf("host PSI: %+v", f)
	}
	// A cgroup that does not stall is no finding.
	quiet := strings.NewReplacer("90.42", "0.00", "90.32", "0.00").Replace(grep)
	d, _ = rootOf(t, quiet)
	if f := findingOf(d, "direct-reclaim-stalls"); f != nil {
		t.Errorf("quiet cgroup fired: %+v", f)
	}
}
