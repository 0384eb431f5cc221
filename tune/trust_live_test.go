package tune

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"headroom/model"
)

// Issue 22 item 3, on the kernel: the journal names the namespace by its nsfs inode, and a
// namespace deleted and made again under the same name is another one; its values are
// not the entry's to restore, even when they equal what headroom wrote.
func TestLiveRollbackIntoRecreatedNetnsWritesNothing(t *testing.T) {
	ns := makeTestNetns(t, false)
	fs, err := OpenNetns(ns)
	if err != nil {
		t.Fatal(err)
	}
	_, changes := perNetnsChanges(t, fs, false)
	c := changes[3] // net.core.somaxconn, bumped by one
	j := openTestJournal(t, t.TempDir())
	a := &Applier{FS: fs, Netns: ns, Journal: j, Limits: testLimits}
	e, _, err := a.Apply(context.Background(), []model.Change{c})
	fs.Close()
	if err != nil {
		t.Fatal(err)
	}
	ino, err := NetnsIno(ns)
	if err != nil || e.NetnsIno == 0 || e.NetnsIno != ino || e.ProcSys != "/proc/sys" {
		t.Fatalf("journaled identity: ino %d (the namespace is %d, %v), proc_sys %q", e.NetnsIno, ino, err, e.ProcSys)
	}
	for _, args := range [][]string{{"netns", "del", ns}, {"netns", "add", ns}} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", ns).Run() })
	fresh := openTestNetnsFS(t, ns)
	if err := fresh.Write(c.Key, c.Recommended); err != nil {
		t.Fatal(err)
	}
	rb := &Rollbacker{Journal: j, OpenFS: liveOpener(t), Limits: testLimits}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].State != StateRolledBack || !strings.Contains(done[0].Notes[len(done[0].Notes)-1], "deleted and made again") {
		t.Errorf("entry %+v", done)
	}
	if v, _ := fresh.Read(c.Key); v != c.Recommended {
		t.Errorf("rollback wrote %s = %s into the new namespace", c.Key, v)
	}
}
