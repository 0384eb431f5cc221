package diagnose

import "testing"

// g292's 6869 (linux-rdma 2021): a buddyinfo whose Normal zones hold about 1 GiB free each
// with one order-7 block between them and none larger: scattered, though a block of 512 KiB
// exists. A zone with a real share in large blocks, or with too little free to call
// plentiful, is not.
func TestFix68eScatteredByShare(t *testing.T) {
	const dma = "Node 0, zone      DMA      0      1      1      2      3      0      1      0      1      1      3 \n" +
		"Node 0, zone    DMA32      7      7      7      6     10      2      6      7      6      2    306 \n"
	const scattered = dma +
		"Node 0, zone   Normal   3390  51354  17574   6556   1586     26      2      1      0      0      0 \n" +
		"Node 1, zone   Normal  11519  23315  23306   9738     73      2      0      1      0      0      0 \n"
	d, _ := rootOf(t, scattered)
	f := findingOf(d, "memory-fragmented")
	if f == nil || f.Severity != Warning || !evidenceHas(*f, "node 0 Normal free blocks by order", "7:1 8:0") {
		t.Fatalf("scattered Normal zones: %+v", f)
	}
	for name, text := range map[string]string{
		// 40 order-10 blocks: 160 MiB of 1.1 GiB free in large blocks.
		"large blocks": dma + "Node 0, zone   Normal   3390  51354  17574   6556   1586     26      2      1      0      0     40 \n",
		// 250 MiB free: not plentiful enough to call it scattered.
		"little free": dma + "Node 0, zone   Normal   3390  11354   7574   1556    586     26      2      1      0      0      0 \n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "memory-fragmented"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}
