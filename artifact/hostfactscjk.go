package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// The kernel release stated in Chinese or Japanese prose, as reKernelVer reads "kernel
// version 3.10.0-693": "内核版本是3.10.0-693.21.1.el7.AV1.x86_64" (corpus 1671, a Chinese
// translation of a Unix & Linux question), "カーネルバージョンは4.19.0です", "内核版本：5.4.0-42".
// The words for "kernel" and "version" right before the release, joined by a copula or a
// colon; a release with no "kernel" word before it (a program's "版本是2.4.1") is not read.
var reKernelVerCJK = lazyre.New(`(?:内核|核心|カーネル)\s*(?:的)?(?:版本|バージョン|のバージョン)?\s*(?:号)?\s*(?:是|为|為|は|：|:|=)?\s*(?:v)?` + reVersion)

// kernelStatedCJK is the release a line states in CJK prose; ok is false otherwise.
func kernelStatedCJK(t string) (string, bool) {
	if !strings.Contains(t, "内核") && !strings.Contains(t, "核心") && !strings.Contains(t, "カーネル") {
		return "", false
	}
	m := reKernelVerCJK.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return strings.TrimRight(m[1], "."), true
}
