package artifact

import "testing"

// The kernel release stated in Chinese or Japanese prose after the word for "kernel" is the
// host's (corpus 1671); a version after another word ("版本是2.4.1" of a program, "nginx 版本
// 1.20") is not.
func TestKernelStatedCJK(t *testing.T) {
	for text, want := range map[string]string{
		"[some_app]: page allocation failure: order:4, mode:0x2040d0\n内核版本是3.10.0-693.21.1.el7.AV1.x86_64\n.\n": "3.10.0-693.21.1.el7.AV1.x86_64",
		"[x]: page allocation failure: order:2, mode:0x20\nカーネルバージョンは4.19.0です。\n":                               "4.19.0",
		"[x]: page allocation failure: order:2, mode:0x20\n内核版本：4.18.0-305.el8.x86_64\n":                        "4.18.0-305.el8.x86_64",
		"[x]: page allocation failure: order:2, mode:0x20\n软件版本是2.6.18，nginx 版本 1.20\n":                         "",
	} {
		if got := ParseString(text, "p", Options{}).Host.Kernel; got != want {
			t.Errorf("%q: kernel %q, want %q", text, got, want)
		}
	}
}
