package export

import (
	"bytes"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"headroom/kernel"
)

const unprivHelperEnv = "HEADROOM_EXPORT_UNPRIV_HELPER"

// nobody is the unprivileged user the collector is run as (65534 on Debian and most others).
const nobody = 65534

// TestUnprivilegedHelper is the child of TestUnprivileged: it scrapes the live host through
// the HTTP handler as whatever user it was started as and prints the exposition.
func TestUnprivilegedHelper(t *testing.T) {
	if os.Getenv(unprivHelperEnv) == "" {
		t.Skip("helper process of TestUnprivileged")
	}
	if os.Geteuid() == 0 {
		t.Fatal("helper runs as root")
	}
	c := NewCollector(kernel.HostRoot(), Options{PageTypes: true, Sockets: true, Ethtool: true})
	defer c.Close()
	if _, err := NewRegistry(c).Gather(); err != nil {
		t.Fatalf("gather as uid %d: %v", os.Geteuid(), err)
	}
	rec := httptest.NewRecorder()
	NewHandler(c, nil).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("/metrics as uid %d: %d %s", os.Geteuid(), rec.Code, rec.Body)
	}
	rec2 := httptest.NewRecorder()
	NewHandler(c, nil).ServeHTTP(rec2, httptest.NewRequest("GET", "/", nil))
	if rec2.Code != 200 {
		t.Fatalf("status page as uid %d: %d", os.Geteuid(), rec2.Code)
	}
	io.WriteString(os.Stdout, "BEGIN EXPOSITION\n"+rec.Body.String()+"END EXPOSITION\n")
}

// The collector works without root: it serves, and it marks what needs root as unavailable
// instead of failing or exporting zeros. As root (CI) the check runs in a copy of this test
// binary started as nobody; as another user it runs in-process.
func TestUnprivileged(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	out := runUnprivileged(t)
	i, j := strings.Index(out, "BEGIN EXPOSITION\n"), strings.Index(out, "END EXPOSITION\n")
	if i < 0 || j < i {
		t.Fatalf("helper printed no exposition:\n%s", out)
	}
	expo := out[i+len("BEGIN EXPOSITION\n") : j]
	avail := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^headroom_source_available\{source="([^"]+)"\} (\d)$`).FindAllStringSubmatch(expo, -1) {
		avail[m[1]] = m[2]
	}
	// Readable by any user on any kernel that has them.
	for _, src := range []string{"/proc/meminfo", "/proc/vmstat", "/proc/zoneinfo", "/proc/buddyinfo", "/proc/net/dev",
		"/proc/net/sockstat", "/proc/net/softnet_stat", "/proc/sys/net/ipv4/tcp_mem"} {
		if avail[src] != "1" {
			t.Errorf("%s: available=%q without root, want 1", src, avail[src])
		}
	}
	// /proc/pagetypeinfo is 0400 root since 5.4: unavailable, and so are its metrics.
	if fi, err := os.Stat("/proc/pagetypeinfo"); err == nil && fi.Mode().Perm()&0o004 == 0 {
		if avail["/proc/pagetypeinfo"] != "0" {
			t.Errorf("/proc/pagetypeinfo (mode %v): available=%q without root, want 0", fi.Mode().Perm(), avail["/proc/pagetypeinfo"])
		}
		if strings.Contains(expo, "headroom_zone_free_blocks_by_migratetype{") {
			t.Error("pagetypeinfo metrics exported although the file could not be read")
		}
	}
	// /dev/kmsg needs CAP_SYSLOG when dmesg_restrict=1: unavailable, and no failure counts
	// (unknown is not zero).
	if b, err := os.ReadFile("/proc/sys/kernel/dmesg_restrict"); err == nil && strings.TrimSpace(string(b)) == "1" {
		if avail["/dev/kmsg"] != "0" {
			t.Errorf("/dev/kmsg with dmesg_restrict=1: available=%q without root, want 0", avail["/dev/kmsg"])
		}
		if strings.Contains(expo, "headroom_page_allocation_failures_total{") {
			t.Error("allocation failure counts exported without a readable kernel log")
		}
	}
	for _, name := range []string{"headroom_zone_free_pages{", "headroom_softnet_processed_total{", "headroom_tcp_memory_pages ", "headroom_rule_checked{"} {
		if !strings.Contains(expo, name) {
			t.Errorf("no %s... in the unprivileged exposition", strings.TrimRight(name, "{ "))
		}
	}
	t.Logf("sources without root: %v", avail)
}

func runUnprivileged(t *testing.T) string {
	if os.Geteuid() != 0 {
		// Already unprivileged: run the helper's body here.
		t.Setenv(unprivHelperEnv, "1")
		var buf bytes.Buffer
		old := os.Stdout
		r, w, _ := os.Pipe()
		os.Stdout = w
		done := make(chan struct{})
		go func() { io.Copy(&buf, r); close(done) }()
		t.Run("helper", TestUnprivilegedHelper)
		w.Close()
		os.Stdout = old
		<-done
		return buf.String()
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary lives in go test's private (0700) work directory: copy it where
	// nobody can execute it.
	dir, err := os.MkdirTemp("", "headroom-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "export.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestUnprivilegedHelper$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), unprivHelperEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper as uid %d: %v\n%s", nobody, err, out)
	}
	return string(out)
}
