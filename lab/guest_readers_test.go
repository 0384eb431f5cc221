package lab

import (
	"context"
	"strings"
	"testing"

	"headroom/lab/vm"
)

const readersZoneinfo = `Node 0, zone      DMA
  per-node stats
      nr_inactive_anon 0
  pages free     3808
        boost    0
        min      181
        low      226
        high     271
        spanned  4095
        present  3998
        managed  3840
        cma      0
        protection: (0, 943, 943, 943)
  pagesets
    cpu: 0
              count: 0
              high:  0
              batch: 1
Node 0, zone   Normal
  pages free     0
        boost    0
        min      0
        low      0
        high     0
        spanned  0
        present  0
        managed  0
`

func TestRawZones(t *testing.T) {
	zs := rawZones(readersZoneinfo)
	if len(zs) != 2 || countPopulated(zs) != 1 {
		t.Fatalf("zones %+v", zs)
	}
	z := zs[0]
	if z.node != 0 || z.name != "DMA" || z.free != 3808 || z.min != 181 || z.low != 226 || z.high != 271 || z.managed != 3840 {
		t.Errorf("DMA %+v (the pageset's \"high:  0\" must not count)", z)
	}
}

func TestRawFiles(t *testing.T) {
	if n, err := rawPageKB("KernelPageSize:        4 kB\n"); err != nil || n != 4 {
		t.Errorf("page size %d %v", n, err)
	}
	if _, err := rawPageKB(""); err == nil {
		t.Error("empty page size accepted")
	}
	if m := rawMeminfo("MemTotal:        981476 kB\nHugePages_Total:       0\n"); m["MemTotal"] != 981476 || m["HugePages_Total"] != 0 {
		t.Errorf("meminfo %v", m)
	}
	if h := rawBuddyHighest("Node 0, zone      DMA      0      1      0      0      0      0      0      0      1      0      0\n"); h["0 DMA"] != 8 {
		t.Errorf("buddyinfo %v", h)
	}
	if m := rawSockstatMem("sockets: used 5\nTCP: inuse 1 orphan 0 tw 0 alloc 1 mem 7\n"); m != 7 {
		t.Errorf("sockstat mem %d", m)
	}
	e := parseExposition("# HELP x\nheadroom_zone_managed_pages{node=\"0\",zone=\"DMA32\"} 1.507328e+06\nheadroom_kernel_info{release=\"6.1.0-56-amd64\",version=\"6.1.192\",word_bits=\"64\"} 1\n")
	if v := e.get("headroom_zone_managed_pages", `node="0",zone="DMA32"`); v != "1507328" {
		t.Errorf("managed %q", v)
	}
	if v := e.label("headroom_kernel_info", "word_bits"); v != "64" {
		t.Errorf("word_bits %q", v)
	}
	if v := e.get("headroom_page_size_bytes", ""); v != "absent" {
		t.Errorf("absent series %q", v)
	}
}

func TestExpectCheck(t *testing.T) {
	s := rawSnap{files: map[string]string{"proc/zoneinfo": strings.Replace(readersZoneinfo, "pages free     3808", "pages free     190", 1)}}
	if got, why := expectCheck("reserve-near-min", s, ""); got != "1" {
		t.Errorf("free 190 with min 181 low 226: %s (%s)", got, why)
	}
	s.files["proc/zoneinfo"] = readersZoneinfo
	if got, _ := expectCheck("reserve-near-min", s, ""); got != "0" {
		t.Errorf("free 3808: %s", got)
	}
	log := strings.Repeat("kworker: page allocation failure: order:2\n", 3)
	if got, _ := expectCheck("page-allocation-failure", s, log); got != "1" {
		t.Errorf("three failures: %s", got)
	}
}

// TestJudgeReadersMismatch feeds the judge a doctor that misread MemTotal and a zone's min
// watermark (pages taken for kB) and raised a warning: each must be a mismatch, the figures
// it read right must not.
func TestJudgeReadersMismatch(t *testing.T) {
	raw := map[string]string{
		"proc/meminfo":              "MemTotal:        981476 kB\nMemFree:          897900 kB\nMemAvailable:     831280 kB\n",
		"proc/zoneinfo":             readersZoneinfo,
		"proc/buddyinfo":            "Node 0, zone      DMA      0      0      0      0      0      0      0      0      0      0      3\n",
		"proc/net/sockstat":         "TCP: inuse 0 orphan 0 tw 0 alloc 0 mem 0\n",
		"proc/cpuinfo":              "processor\t: 0\n\nprocessor\t: 1\n",
		"proc/sys/kernel/osrelease": "6.1.0-56-amd64\n",
		"proc/sys/net/ipv4/tcp_mem": "10374\t13833\t20748\n",
		"sys/class/net/eth0/mtu":    "1500\n",
		"pagesize":                  "KernelPageSize:        4 kB\n",
		"machine":                   "x86_64\n",
		"eth0-driver":               "../../../../bus/virtio/drivers/virtio_net\n",
	}
	files := map[string][]byte{}
	for _, tag := range []string{"before", "after", "serve"} {
		for k, v := range raw {
			files["raw/"+tag+"/"+k] = []byte(v)
		}
	}
	files["doctor.json"] = []byte(`{"host":{"kernel":"6.1.0-56-amd64","arch":"x86_64","word_bits":64,"highmem":false,"page_size":4096,"mem_total_kb":245869,"cpus":2},
"summary":{"mem_total_kb":981476,"zones":[{"node":0,"zone":"DMA","free_kb":15232,"min_kb":181,"low_kb":904,"high_kb":1084,"managed_kb":15360,"highest_free_order":10}]},
"findings":[{"id":"reserve-near-min","severity":"warning","title":"t"}]}`)
	files["doctor.rc"] = []byte("1\n")
	d, err := judgeReaders(context.Background(), &vm.Result{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range d.Comparisons {
		got[c.Reader+" "+c.Figure] = c.OK
	}
	for fig, want := range map[string]bool{
		"doctor host.kernel": true, "doctor host.cpus": true, "doctor zone 0 DMA low_kb": true, "doctor zone 0 DMA highest_free_order": true,
		"doctor host.mem_total_kb": false, "doctor zone 0 DMA min_kb": false, "doctor finding reserve-near-min": false, "doctor exit status": false,
		"doctor summary.tcp_mem": false, // absent is not zero
	} {
		if ok, seen := got[fig]; !seen || ok != want {
			t.Errorf("%s: ok=%v (compared: %v), want ok=%v", fig, ok, seen, want)
		}
	}
}
