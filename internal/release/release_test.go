// Package release tests `make release` (.ci/release): the amd64 .deb holds the binary, the
// man pages, the systemd unit and the sysusers/tmpfiles setup, installs into a scratch root
// with dpkg --root (the host's dpkg database and / are not touched), and the installed
// headroom runs --version and doctor.
package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestDebInstallsAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building a release takes a minute")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root: dpkg --root installs files owned by root")
	}
	for _, tool := range []string{"dpkg-deb", "dpkg", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: not a Debian host", tool)
		}
	}
	dist := t.TempDir()
	cmd := exec.Command(".ci/release", "amd64")
	cmd.Env = append(os.Environ(), "DIST="+dist, "VERSION=v9.8.7-test")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf(".ci/release amd64: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	deb := filepath.Join(dist, "release", "headroom_9.8.7+test_amd64.deb")
	contents, err := exec.Command("dpkg-deb", "-c", deb).CombinedOutput()
	if err != nil {
		t.Fatalf("dpkg-deb -c: %v\n%s", err, contents)
	}
	for _, want := range []string{"./usr/bin/headroom", "./usr/lib/systemd/system/headroom.service",
		"./usr/share/man/man1/headroom.1.gz", "./usr/share/man/man1/headroom-doctor.1.gz",
		"./usr/lib/sysusers.d/headroom.conf", "./usr/lib/tmpfiles.d/headroom.conf"} {
		if !strings.Contains(string(contents), want) {
			t.Errorf("the .deb lacks %s", want)
		}
	}
	sums, err := os.ReadFile(filepath.Join(dist, "release", "SHA256SUMS"))
	if err != nil || !strings.Contains(string(sums), "headroom_9.8.7+test_amd64.deb") || !strings.Contains(string(sums), "headroom-v9.8.7-test-linux-amd64.tar.gz") {
		t.Errorf("SHA256SUMS: %v %s", err, sums)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = filepath.Join(dist, "release")
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v %s", err, out)
	}

	// A scratch root with an empty dpkg database: dpkg --root installs there and runs the
	// maintainer scripts without chroot, with DPKG_ROOT set (postinst acts on it).
	root := t.TempDir()
	for _, d := range []string{"var/lib/dpkg/info", "var/lib/dpkg/updates", "var/lib/dpkg/triggers", "etc", "usr/bin"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "var/lib/dpkg/status"), nil, 0o644)
	inst := exec.Command("dpkg", "--root="+root, "--force-script-chrootless", "--force-not-root", "--no-triggers",
		"--log=/dev/null", "--instdir="+root, "--admindir="+filepath.Join(root, "var/lib/dpkg"), "-i", deb)
	if out, err := inst.CombinedOutput(); err != nil {
		t.Fatalf("dpkg --root -i: %v\n%s", err, out)
	}
	bin := filepath.Join(root, "usr/bin/headroom")
	v, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(v), "headroom v9.8.7-test (revision ") {
		t.Errorf("installed headroom --version: %v %q", err, v)
	}
	t.Logf("installed: %s", v)
	doc := exec.Command(bin, "doctor", "--duration", "0", "--state-dir", t.TempDir())
	d, err := doc.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); (err != nil && !ok) || (ok && ee.ExitCode() > 2) || !strings.Contains(string(d), "headroom") {
		t.Errorf("installed headroom doctor: %v\n%s", err, d)
	}
	if _, err := os.Stat(filepath.Join(root, "var/lib/headroom")); err != nil {
		t.Errorf("postinst did not create var/lib/headroom under the root (tmpfiles): %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "etc/passwd")); !strings.Contains(string(b), "headroom:") {
		t.Logf("postinst made no headroom account under the root (systemd-sysusers: %q)", b)
	}
}
