package vm

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"headroom/lab/netlab"
)

// needGuest skips unless this test can boot kernel name: root (namespaces, taps), QEMU and
// the kernel in the cache.
func needGuest(t *testing.T, name string) Status {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("vm: booting a guest needs root (a network namespace and a tap); run as root")
	}
	if _, err := exec.LookPath("qemu-system-x86_64"); err != nil {
		t.Skip("vm: qemu-system-x86_64 not installed (apt-get install qemu-system-x86)")
	}
	k, err := LookupKernel(name)
	if err != nil {
		t.Fatal(err)
	}
	st := k.Stat(CacheDir())
	if !st.Present {
		t.Skipf("vm: kernel %s not in %s (%s): run make vmkernels", name, CacheDir(), st.Missing)
	}
	return st
}

// TestGuestScript boots each kernel with a script that prints, fails with a chosen status,
// writes a result file and answers TCP from the host over the tap; it checks all of them
// come back and that the run leaves nothing behind.
func TestGuestScript(t *testing.T) {
	for _, name := range []string{"debian-6.1-amd64", "debian-6.1-686-pae"} {
		t.Run(name, func(t *testing.T) {
			needGuest(t, name)
			before, err := netlab.SnapshotOwned()
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			g, err := Start(ctx, Spec{
				Kernel: name, MemoryMiB: 256, Headroom: "-", Timeout: 3 * time.Minute,
				Disks:    []Disk{{SizeMiB: 64, Mount: "/mnt/data"}, {SizeMiB: 8}},
				Progress: func(s string) { t.Log(s) },
				Script: `echo hello from $(uname -m)
echo to stderr >&2
cat /proc/meminfo > $OUT/meminfo
mkdir -p $OUT/sub && echo nested > $OUT/sub/f
grep " /mnt/data " /proc/mounts > $OUT/mounts
dd if=/dev/zero of=/mnt/data/file bs=1M count=8 2>/dev/null && sync && ls -l /mnt/data/file >> $OUT/mounts
[ -b /dev/vdb ] && echo vdb $(cat /sys/block/vdb/size) >> $OUT/mounts
echo "listening" > /dev/console
echo pong | nc -l -p 7000
exit 3
`,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			if err := g.WaitConsole(ctx, "listening"); err != nil {
				t.Fatalf("%v\nconsole:\n%s", err, g.Console())
			}
			var got string
			err = g.Host().Do(func() error {
				var c net.Conn
				var err error
				for i := 0; i < 50; i++ {
					if c, err = net.DialTimeout("tcp", GuestAddr(0).String()+":7000", 2*time.Second); err == nil {
						break
					}
					time.Sleep(200 * time.Millisecond)
				}
				if err != nil {
					return err
				}
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				b := make([]byte, 64)
				n, _ := c.Read(b)
				got = string(b[:n])
				return nil
			})
			if err != nil || strings.TrimSpace(got) != "pong" {
				t.Fatalf("TCP from host to guest: %q, %v", got, err)
			}
			r, err := g.Wait(ctx)
			if err != nil {
				t.Fatalf("%v\nconsole:\n%s", err, r.Console)
			}
			t.Logf("%s: boot %v, whole run %v, accel %s (%s)", name, r.BootTime.Round(time.Millisecond), r.Elapsed.Round(time.Millisecond), r.Accel.Accel, r.Accel.Reason)
			if r.ExitCode != 3 || !strings.HasPrefix(r.Stdout, "hello from ") || r.Stderr != "to stderr\n" {
				t.Errorf("exit %d stdout %q stderr %q", r.ExitCode, r.Stdout, r.Stderr)
			}
			// The console's last lines survive QEMU's exit (the exit marker is printed just
			// before poweroff).
			if !strings.Contains(r.Console, markerExit+" 3") {
				t.Errorf("console lacks the exit marker; it ends: %s", lastLines(r.Console, 3))
			}
			if m := string(r.Files["mounts"]); !strings.Contains(m, "/dev/vda /mnt/data ext") || !strings.Contains(m, " 8388608 ") || !strings.Contains(m, "vdb 16384") {
				t.Errorf("disks: %q", m)
			}
			if !strings.Contains(string(r.Files["meminfo"]), "MemTotal:") || string(r.Files["sub/f"]) != "nested\n" {
				t.Errorf("files %v", keys(r.Files))
			}
			if !strings.Contains(r.Console, "Linux version "+r.Kernel.Release[:strings.Index(r.Kernel.Release, "-")]) || r.GuestRelease != r.Kernel.Release {
				t.Errorf("guest release %q, console head %q", r.GuestRelease, r.Console[:min(400, len(r.Console))])
			}
			if !strings.Contains(r.Dmesg, "Linux version") || !strings.Contains(r.Dmesg, "9p") {
				t.Errorf("dmesg lacks the boot banner or the 9p module:\n%s", r.Dmesg)
			}
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			after, err := netlab.SnapshotOwned()
			if err != nil {
				t.Fatal(err)
			}
			if ch := before.RunChanges(after, netlab.Mine()); len(ch) > 0 {
				t.Errorf("left behind: %v", ch)
			}
		})
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestGuestQdisc applies the guest's own netem (200 ms on what eth0 sends) through the
// guest headroom's QdiscMode, measures it from the host (a TCP connect waits for the
// guest's SYN-ACK), then replaces it with fq.
func TestGuestQdisc(t *testing.T) {
	const name = "debian-6.1-amd64"
	needGuest(t, name)
	netem, err := Qdisc{Dev: "eth0", Kind: "netem", Delay: 200 * time.Millisecond}.Command()
	if err != nil {
		t.Fatal(err)
	}
	fq, err := Qdisc{Dev: "eth0", Kind: "fq", FlowMaxRateBytes: 1 << 20}.Command()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	g, err := Start(ctx, Spec{
		Kernel: name, MemoryMiB: 384, Modules: []string{"sch_netem", "sch_fq"}, Timeout: 4 * time.Minute,
		Progress: func(s string) { t.Log(s) },
		Script: netem + ` || exit 10
tc qdisc show dev eth0 > $OUT/netem
echo listening > /dev/console
echo pong | nc -l -p 7000
` + fq + ` || exit 11
tc qdisc show dev eth0 > $OUT/fq
`,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.WaitConsole(ctx, "listening"); err != nil {
		t.Fatalf("%v\nconsole:\n%s", err, g.Console())
	}
	var took time.Duration
	err = g.Host().Do(func() error {
		for i := 0; i < 50; i++ {
			t0 := time.Now()
			c, err := net.DialTimeout("tcp", GuestAddr(0).String()+":7000", 5*time.Second)
			if err == nil {
				took = time.Since(t0)
				c.Close()
				return nil
			}
			time.Sleep(200 * time.Millisecond)
		}
		return fmt.Errorf("no connection")
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Wait(ctx)
	if err != nil {
		t.Fatalf("%v\nstderr %s\nconsole:\n%s", err, r.Stderr, r.Console)
	}
	t.Logf("connect through the guest's netem 200ms: %v; qdiscs: %q, %q", took, r.Files["netem"], r.Files["fq"])
	if r.ExitCode != 0 {
		t.Fatalf("exit %d: %s", r.ExitCode, r.Stderr)
	}
	if took < 200*time.Millisecond {
		t.Errorf("connect took %v, less than the guest's netem delay of 200ms", took)
	}
	if !strings.Contains(string(r.Files["netem"]), "netem") || !strings.Contains(string(r.Files["fq"]), "fq") {
		t.Errorf("tc shows %q then %q", r.Files["netem"], r.Files["fq"])
	}
}
