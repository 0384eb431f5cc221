package artifact

import (
	"errors"
	"strings"
	"testing"
)

// The wrapped-line class of issue 16: a header broken by a mail client, by a terminal, and
// a line after a kernel line that is not a piece of it.
func TestUnwrapJoinsWrappedKernelLines(t *testing.T) {
	// Mail-wrapped at about 70 columns (corpus 026 and 046 are real cases of this).
	mail := strings.Join([]string{
		"May 10 15:26:40 os02 kernel: [ 3652.485219] cosd: page allocation",
		"failure. order:2, mode:0x4020",
		"May 10 15:26:40 os02 kernel: [ 3652.485228] Pid: 57, comm: kswapd0",
		"Tainted: P        W   2.6.38.6-1.fits.1.el6.x86_64 #1",
		"May 10 15:26:40 os02 kernel: [ 3652.485230] Call Trace:",
		"May 10 15:26:40 os02 kernel: [ 3652.485247]  [<ffffffff814b0ad0>] ?",
		"ip_local_deliver+0x80/0x90",
		"May 10 15:26:40 os02 kernel: [ 3652.485250] eth0: some other line of text",
	}, "\n")
	tl := ParseString(mail, "mail", Options{})
	if len(tl.Events) != 1 || tl.Events[0].AllocFailure == nil {
		t.Fatalf("events = %+v, want one allocation failure", tl.Events)
	}
	af := tl.Events[0].AllocFailure
	if af.Process != "cosd" || af.Order != 2 || af.Mode != "0x4020" {
		t.Errorf("header = %q order %d mode %q, want cosd 2 0x4020", af.Process, af.Order, af.Mode)
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed: %+v", tl.Unparsed)
	}

	// A terminal's hard wrap at exactly 80 columns cuts words.
	hard := strings.Join([]string{
		"[  624.862777] ksoftirqd/0: page allocation failure: order:0, mode:0x2080020(GFP",
		"_ATOMIC)",
		"[  624.863319] CPU: 0 PID: 3 Comm: ksoftirqd/0 Not tainted 4.9.0-0.rc8.git2.1.fc",
		"26.x86_64 #1",
		"[  624.863410] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.9.",
		"[  624.863500] Call Trace:",
	}, "\n")
	tl = ParseString(hard, "hard", Options{})
	if len(tl.Events) != 1 || tl.Events[0].AllocFailure.Mode != "0x2080020(GFP_ATOMIC)" {
		t.Fatalf("hard wrap: events = %+v", tl.Events)
	}

	// Command output after a kernel line is not a piece of it, however long the line.
	mixed := "[  624.862777] e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: None\n" +
		"$ free -m\n" +
		"              total        used        free      shared  buff/cache   available\n" +
		"Mem:           7822        1187        5108          33        1526        6306\n"
	tl = ParseString(mixed, "mixed", Options{})
	if tl.Log.Len() != 1 || strings.Contains(tl.Log.At(0).Message, "free") {
		t.Errorf("log = %+v, want the kernel line alone", tl.Log)
	}
}

// Binary input is an error, not a text with nothing in it.
func TestParseRefusesBinary(t *testing.T) {
	_, err := Parse(strings.NewReader("ELF\x00\x01\x02 page allocation failure"), "bin", Options{})
	if !errors.Is(err, ErrBinary) {
		t.Fatalf("err = %v, want ErrBinary", err)
	}
	if tl, err := Parse(strings.NewReader("hello world\n"), "t", Options{}); err != nil || !NothingRead(tl) {
		t.Fatalf("hello world: err %v, NothingRead false", err)
	}
}
