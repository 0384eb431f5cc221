package diagnose

import (
	"strings"
	"testing"
)

// fix62d: a kernel log that a netconsole receiver stamped ("Sep 18 20:48:55 [88988.266617]
// cron: page allocation failure: ...", no host, no tag) is read as the kernel's, and a slab
// cache that could not grow is no root for failures whose traces are not its growth.

const fix62dRefill = `Sep 18 20:48:55 [88988.266617] cron: page allocation failure: order:0, mode:0x20
Sep 18 20:48:55 [88988.266651] CPU: 1 PID: 2634 Comm: cron Not tainted 3.10.12 #1
Sep 18 20:48:55 [88988.267214] Call Trace:
Sep 18 20:48:55 [88988.267368]  <IRQ>  [<ffffffff812665b6>] dump_stack+0x19/0x1b
Sep 18 20:48:55 [88988.267548]  [<ffffffff81085fbb>] warn_alloc_failed+0x110/0x124
Sep 18 20:48:55 [88988.267876]  [<ffffffff8108817a>] __alloc_pages_nodemask+0x2d6/0x5d9
Sep 18 20:48:55 [88988.268367]  [<ffffffff811dd56b>] __netdev_alloc_frag+0x5b/0xff
Sep 18 20:48:55 [88988.268528]  [<ffffffff811de266>] __netdev_alloc_skb+0x39/0x9a
Sep 18 20:48:55 [88988.268705]  [<ffffffffa01b4c1a>] rtl8169_poll+0x21b/0x4cd [r8169]
Sep 18 20:48:55 [88988.269030]  [<ffffffff811e825b>] net_rx_action+0xa3/0x181
`

const fix62dSlub = `Sep 18 20:49:07 [88999.386386] SLUB: Unable to allocate memory on node -1 (gfp=0x20)
Sep 18 20:49:07 [88999.386388]   cache: kmalloc-256, object size: 256, buffer size: 256, default order: 0, min order: 0
Sep 18 20:49:07 [88999.386390]   node 0: slabs: 468, objs: 7488, free: 0
`

func TestFix62dHostlessStampedKernelLog(t *testing.T) {
	for _, quote := range []string{"", "> "} {
		text := ""
		for _, l := range strings.SplitAfter(fix62dRefill, "\n") {
			if l != "" {
				text += quote + l
			}
		}
		tl := parseText19b(t, text)
		var af []string
		for _, e := range tl.Events {
			if e.AllocFailure != nil {
				af = append(af, e.AllocFailure.Process)
				if len(e.AllocFailure.CallTrace) < 5 {
					t.Errorf("%q: trace %v", quote, e.AllocFailure.CallTrace)
				}
			}
		}
		if len(af) != 1 || af[0] != "cron" {
			t.Errorf("%q: failures %v, want one by cron", quote, af)
		}
	}
	// Counter-case: a syslog line with a host is read as before, its host kept.
	tl := parseText19b(t, "Sep 18 20:48:55 nas kernel: [88988.266617] cron: page allocation failure: order:0, mode:0x20\n")
	if len(tl.Events) != 1 || tl.Events[0].AllocFailure == nil || tl.Events[0].AllocFailure.Process != "cron" {
		t.Errorf("hosted syslog line: %+v", tl.Events)
	}
}

func TestFix62dRefillFailureLeadsSlabFailure(t *testing.T) {
	d, root := rootOf(t, fix62dRefill+fix62dSlub)
	if findingOf(d, "slab-alloc-failure") == nil {
		t.Fatalf("no slab-alloc-failure: %v", d.Findings)
	}
	if !strings.HasPrefix(root, "alloc-fail-") {
		t.Errorf("root %q, want the receive refill's page allocation failure", root)
	}
}
