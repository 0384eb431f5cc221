package kernel

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestParseTaskStat(t *testing.T) {
	ts, err := ParseTaskStat(bytes.NewReader(member(t, hostFixture, "proc/14/stat")))
	if err != nil {
		t.Fatal(err)
	}
	if ts.PID != 14 || ts.Comm != "ksoftirqd/0" || ts.PPID != 2 || ts.State != "S" || ts.StartTicks != 10 {
		t.Errorf("%+v", ts)
	}
	// A comm with spaces and parentheses: the last ")" ends it.
	line := "4242 (evil) S 1 (x) R 3) R 1 4242 4242 0 -1 4194560 10 0 0 0 17 23 0 0 20 0 1 0 777 0 0\n"
	ts, err = ParseTaskStat(strings.NewReader(line))
	if err != nil {
		t.Fatal(err)
	}
	if ts.Comm != "evil) S 1 (x) R 3" || ts.State != "R" || ts.PPID != 1 || ts.UTimeTicks != 17 || ts.STimeTicks != 23 || ts.StartTicks != 777 {
		t.Errorf("%+v", ts)
	}
}

func TestParseTaskStatMalformed(t *testing.T) {
	const ok = "14 (ksoftirqd/0) S 2 0 0 0 -1 69238848 0 0 0 0 2 8 0 0 20 0 1 0 10 0 0\n"
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"no comm", "14 ksoftirqd S 2\n", 1},
		{"unclosed comm", "14 (ksoftirqd S 2\n", 1},
		{"bad pid", "x (a) S 2 0 0 0 -1 1 0 0 0 0 2 8 0 0 20 0 1 0 10\n", 1},
		{"truncated", ok[:40], 1},
		{"bad utime", strings.Replace(ok, " 2 8 ", " x 8 ", 1), 1},
		{"bad state", strings.Replace(ok, " S ", " SS ", 1), 1},
	}, func(b []byte) error { var ts TaskStat; return ParseTaskStatInto(&ts, b) })
}

func TestParseTaskStatInto(t *testing.T) {
	checkInto(t, ParseTaskStatInto, member(t, hostFixture, "proc/45/stat"), member(t, hostFixture, "proc/2/stat"))
}

func TestReadKernelThreads(t *testing.T) {
	a := loadArchive(t, hostFixture)
	// A user process that borrows a kernel thread's name is not a kernel thread.
	a.Files = append(a.Files, txtar.File{Name: "proc/999/stat",
		Data: []byte("999 (kswapd0) S 1 999 999 0 -1 0 0 0 0 0 500 500 0 0 20 0 1 0 5000 0 0\n")})
	root := TxtarRoot(a, hostFixture)
	all, err := ReadKernelThreads(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ts := range all {
		got = append(got, strconv.Itoa(ts.PID)+":"+ts.Comm)
		if ts.PPID != 2 {
			t.Errorf("%+v is not a child of kthreadd", ts)
		}
	}
	if strings.Join(got, " ") != "14:ksoftirqd/0 22:ksoftirqd/1 36:kcompactd0 45:kswapd0" {
		t.Errorf("threads %v", got)
	}
	some, err := ReadKernelThreads(root, "kswapd")
	if err != nil || len(some) != 1 || some[0].PID != 45 {
		t.Errorf("kswapd only: %v %+v", err, some)
	}
	if TaskStatPath(45) != "proc/45/stat" {
		t.Error(TaskStatPath(45))
	}
	again, err := ReadTaskStat(root, 45)
	if err != nil || again != some[0] {
		t.Errorf("ReadTaskStat(45) = %+v, %v", again, err)
	}
}

func TestReadKernelThreadsLive(t *testing.T) {
	if _, err := os.Stat("/proc/2/stat"); err != nil {
		t.Skip("no /proc/2 (not Linux, or a PID namespace without kthreadd)")
	}
	all, err := ReadKernelThreads(HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ts := range all {
		if strings.HasPrefix(ts.Comm, "ksoftirqd/") {
			found = true
		}
	}
	if len(all) > 0 && !found {
		t.Errorf("no ksoftirqd among %+v", all)
	}
	if len(all) == 0 {
		t.Skip("kernel threads not visible here")
	}
}

func FuzzParseTaskStat(f *testing.F) {
	other := seedFuzz(f, taskStatRE.MatchString, "1 ()) S 0\n", "1 (a) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseTaskStatInto) })
}

func BenchmarkParseTaskStatInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/45/stat"), ParseTaskStatInto)
}
