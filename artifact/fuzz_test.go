package artifact

import (
	"os"
	"path/filepath"
	"testing"

	"headroom/kernel"
)

// addFixtures seeds a fuzz corpus with every fixture and seed report.
func addFixtures(f *testing.F) {
	f.Helper()
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	seedPaths, _ := filepath.Glob(filepath.Join("..", "testdata", "seeds", "*.txt"))
	// The labelled corpus of real pastes: every parser meets the wraps, prefixes and
	// mangling that people really paste (and FuzzStream checks the streamed parse of each).
	corpus, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.txt"))
	seedPaths = append(seedPaths, corpus...)
	for _, p := range append(paths, seedPaths...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("")
	f.Add("\n\n\r\n>")
	f.Add("x: page allocation failure: order:9999999999999999999, mode:0x(")
	f.Add("Node 0, zone Normal 1 2 3\nNode 0, zone Normal 4 5 6\n")
	f.Add("19 drops at __netif_receive_skb+49f (0xffffffff8147b4ef)\n1 drops at location 0x1\n99999999999999999999 drops at x+1 (0x2) ^C\n")
	f.Add("DMA: 1*4kB (\nNormal free:kB min: present:-1kB\nlowmem_reserve[]: x\n")
	// unreadcmd.go: a domain command, its unread output across blank lines, a header row
	f.Add("# cat /sys/class/net/eth1/qos/buffer_size\n\nPort buffer size = 262016\n\nBuffer Size\n\n0 130944\n$ ls -l\n1 2 3 4 5\n")
	// kube_events.go, docker_events.go, kube_pod.go, kubeletflags.go: a header with no rows,
	// a row cut in its count, a field block at the text's start, a config line alone.
	f.Add("Events:\n  Type  Reason  Age  From  Message\n  ----\nWarning SystemOOM 1m (x\nReason: OOMKilled\nExit Code: 99999999999999999999\n")
	f.Add("2024-01-01T00:00:00Z container oom 0123456789ab (\ncontainer oom 0123456789ab\n{\"Type\":\"container\",\"Action\":\"oom\"}\n")
	f.Add("I0101 00:00:00.000000 1 x.go:1] Creating Container Manager object based on Node Config: {KubeReserved:map[memory:{i:{value:1 scale:-3}\nHardEvictionThresholds:[{Signal:memory.available Operator:LessThan Value:{Quantity:1e999 Percentage:0}\n")
	// iproute_json.go, journal_records.go, pfring.go, cmdvalue.go (forms9): a JSON document
	// cut or with a value of the wrong type, journal records cut in their fields, a brace
	// with no comma, a Duration block cut.
	f.Add("[{\"ifname\":\"eth0\",\"stats64\":{\"rx\":{\"dropped\":-1,\"missed_errors\":1e99},\"tx\":[]}}]\n[ {\n\"ifname\": \"x\",\n\"rx_missed_errors\": 99999999999999999999\n")
	f.Add("{\"kernel\":{\"TcpExtPruneCalled\":\"7\",\"IpInReceives\":3}}\n{\n\t\"MESSAGE\" : [ 1, 2 ],\n\t\"_TRANSPORT\" : \"kernel\"\n}\n")
	f.Add("__CURSOR=s=1;i=2\nMESSAGE=Mem-Info:\n\n__CURSOR=\nMESSAGE=\nSun 2026-11-29 10:01:02.1 UTC [s=a;i=b;b=c;m=d;t=e;x=f]\n    MESSAGE=x\n    =\n")
	f.Add("$ cat /proc/sys/net/netfilter/nf_conntrack_{count,max}{\n1\n$ conntrack -C\n-5\nDuration: 0:0\nBytes: 1\nDropped: x\n")
	// showmem.go zonelessList: 2.4's lists without their Zone: lines, the last cut
	f.Add("kernel: 0*4kB 1*8kB 0*16kB 1*32kB = 40kB)\nkernel: 5*4kB 2*8kB 1*16kB 0*32kB = 52kB)\nkernel: 3*4kB 1*8kB \n")
}

// FuzzParse runs the whole segmenter: no input may panic, and every artifact and unparsed
// range must point at lines that exist.
func FuzzParse(f *testing.F) {
	addFixtures(f)
	f.Fuzz(func(t *testing.T, s string) {
		tl := ParseString(s, "fuzz", Options{})
		n := len(SplitLines(s))
		for _, a := range tl.Artifacts {
			if a.FirstLine < 1 || a.LastLine < a.FirstLine || a.LastLine > n {
				t.Fatalf("artifact %s spans lines %d-%d of %d", a.Kind, a.FirstLine, a.LastLine, n)
			}
		}
		for _, u := range tl.Unparsed {
			if u.FirstLine < 1 || u.LastLine < u.FirstLine || u.LastLine > n || u.Why == "" {
				t.Fatalf("unparsed %+v of %d lines", u, n)
			}
		}
		for _, sg := range tl.Segments {
			if sg.First < 0 || sg.Last >= len(tl.Samples) || sg.Last < sg.First {
				t.Fatalf("segment %+v of %d samples", sg, len(tl.Samples))
			}
		}
	})
}

func FuzzKernelReports(f *testing.F) {
	addFixtures(f)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseAllocFailure(s, "")
		_, _ = ParseAllocFailure(s, "4.19")
		_, _ = ParseOOM(s, "")
		_, _ = ParseSlabFailure(s, "5.10")
		_ = ParseShowMem(s)
		_ = ParseCallTrace(s)
	})
}

func FuzzTables(f *testing.F) {
	addFixtures(f)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseVMStat(s)
		_, _ = ParseTop(s)
		_, _ = ParseReadprofile(s)
		_, _ = ParsePerfReport(s)
	})
}

func FuzzNetwork(f *testing.F) {
	addFixtures(f)
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ParseSocketTable(s)
		_, _ = ParseNetstatS(s)
		_, _ = ParseNstat(s)
		_, _ = ParseIfconfig(s)
		_, _ = ParseIPLink(s)
		_, _ = ParseEthtoolStats(s)
		_, _ = ParseEthtoolRing(s)
	})
}

func FuzzSettings(f *testing.F) {
	addFixtures(f)
	f.Add("sysctl -w vm.min_kbytes_free=20248.\necho 1 > /proc/sys/net/ipv4/tcp_tw_recycle")
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ParseSettings(s) {
			if m.Key == "" || m.Line < 1 {
				t.Fatalf("setting %+v", m)
			}
		}
		_, _ = kernel.KnownSysctl(s)
	})
}
