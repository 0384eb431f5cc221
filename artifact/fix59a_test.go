package artifact

import (
	"testing"

	"headroom/model"
)

// fix59a (round 54): munin's memory plugin run by hand, xenstore-ls -f of a Xen host, and
// a listen queue stated filled by the author's own connections.

func TestFix59aMuninMemory(t *testing.T) {
	text := "# munin-run memory\nslab.value 109867008\nswap_cache.value 0\napps.value 491507712\nfree.value 6626140160\n" +
		"buffers.value 90103808\ncached.value 735678464\nswap.value 0\ncommitted.value 415891456\n" +
		"# munin-run memory config\ngraph_args --base 1024 -l 0 --upper-limit 8053297152\ngraph_vlabel Bytes\ngraph_title Memory usage\n" +
		"free.label unused\nfree.draw STACK\nfree.info Wasted memory. Memory that is not used for anything at all.\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 || tl.Samples[0].MemInfo == nil {
		t.Fatalf("samples %+v", tl.Samples)
	}
	mi := tl.Samples[0].MemInfo
	for name, want := range map[string]int64{"MemFree": 6470840, "Cached": 718436, "Slab": 107292, "MemTotal": 7864548, "Committed_AS": 406144} {
		if got, ok := mi.Get(name); !ok || got != want {
			t.Errorf("%s = %d (%v), want %d", name, got, ok, want)
		}
	}
	for _, sum := range []string{"apps", "swap"} { // the plugin's sums have no meminfo line
		if _, ok := mi.Get(sum); ok {
			t.Errorf("%s mapped", sum)
		}
	}
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	// Another plugin's fields are kept, never meminfo; prose naming a field is not read.
	tl = ParseString("# munin-run if_eth0\ndown.value 123456789\nup.value 98765432\n", "p", Options{})
	if len(tl.Samples) != 0 || len(tl.Artifacts) != 1 {
		t.Errorf("if_eth0: samples %d artifacts %d", len(tl.Samples), len(tl.Artifacts))
	}
	tl = ParseString("free.value 6626140160\nload.value 3\n", "p", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("free alone read as the memory plugin: %+v", tl.Samples)
	}
	notReadAs(t, KindMunin,
		"The plugin prints free.value and apps.value in bytes.\n",
		"set free.value = 10 in the config\n",
	)
}

func TestFix59aXenstore(t *testing.T) {
	text := "/local/domain/0/name = \"Domain-0\" (n0)\n/local/domain/0/memory/target = \"4194304\" (n0)\n" +
		"/local/domain/0/memory/static-max = \"4294967292\" (n0)\n/local/domain/0/memory/freemem-slack = \"7547765\" (n0)\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != KindXenstore || len(tl.Samples) != 0 {
		t.Fatalf("artifacts %+v samples %d", tl.Artifacts, len(tl.Samples))
	}
	x := tl.Artifacts[0].Data.(XenstoreData)
	m := x.Domains["0"]
	if m.TargetKB != 4194304 || !m.StaticMaxUnlimited || m.FreememSlackKB != 7547765 {
		t.Errorf("dom0 %+v", m)
	}
	// A real ceiling is no "no limit"; one quoted assignment is not the store.
	x = ParseString("/local/domain/3/memory/static-max = \"2097152\"\n/local/domain/3/memory/target = \"1048576\"\n", "p", Options{}).Artifacts[0].Data.(XenstoreData)
	if d := x.Domains["3"]; d.StaticMaxUnlimited || d.StaticMaxKB != 2097152 {
		t.Errorf("domain 3 %+v", d)
	}
	notReadAs(t, KindXenstore,
		"/etc/hostname = \"web1\"\n",
		"Set path = \"/local/domain/0\" in the config.\n",
	)
}

func TestFix59aStatedListenQueueFilled(t *testing.T) {
	wantStated(t, model.RateStatedListenRising, []statedCase{
		{"I'm currently investigating a problem on one of our machines where the server can't keep up with the incoming connections. New connections fill up the LISTEN queue until it finally overflows.\n", 1},
		{"Our clients overflowed the accept queue of the gateway during the sale.\n", 1},
		// counter-cases: a guide's present tense, a condition, a remedy, a question
		{"When the application is slow, new connections fill up the listen queue until it overflows.\n", 0},
		{"New connections fill up the LISTEN queue until it finally overflows.\n", 0},
		{"If clients fill up the accept queue, raise net.core.somaxconn.\n", 0},
		{"Raise the backlog to avoid overflowing the accept queue.\n", 0},
		{"Do new connections fill up the accept queue on your box?\n", 0},
		{"We monitor node_netstat_TcpExt_ListenOverflows with node_exporter.\n", 0},
	})
}

func TestFix59aSarSock(t *testing.T) {
	text := "10:03:25 PM    totsck    tcpsck    udpsck    rawsck   ip-frag    tcp-tw\n" +
		"10:03:26 PM       598         6         5         0         0         3\n" +
		"Average:          598         6         5         0         0         3\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %d", len(tl.Samples))
	}
	ss := tl.Samples[0].SockStat
	for _, c := range []struct {
		g, n string
		want int64
	}{{"sockets", "used", 598}, {"TCP", "inuse", 6}, {"TCP", "tw", 3}, {"UDP", "inuse", 5}, {"FRAG", "inuse", 0}} {
		if got, ok := ss.Get(c.g, c.n); !ok || got != c.want {
			t.Errorf("%s %s = %d (%v), want %d", c.g, c.n, got, ok, c.want)
		}
	}
	// The column names in a sentence, or a header with no row under it, are no table.
	for _, text := range []string{
		"What does totsck tcpsck udpsck mean in sar?\n",
		"10:03:25 PM    totsck    tcpsck    udpsck    rawsck   ip-frag    tcp-tw\nno rows today\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Samples) != 0 {
			t.Errorf("%q: samples %d", text, len(tl.Samples))
		}
	}
}
