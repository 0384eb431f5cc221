package artifact

import (
	"strings"
	"testing"
)

// fix34d: Torque's pbsnodes status line (corpus 2959) named with each node's memory figures;
// the keys in a sentence, PBS Pro's resources_available lines and a line the paste cut
// before availmem are not read as it.
func TestFix34dPBSNodesStatus(t *testing.T) {
	text := "node2801.example.org\n     state = free\n     np = 2\n" +
		"     status = rectime=1467397977,jobs=,state=free,size=11175056kb:11218120kb,netload=190327079208,gres=,loadave=0.01,ncpus=2,physmem=4047312kb,availmem=12224780kb,totmem=12435916kb,idletime=377913,nusers=2,opsys=linux\n" +
		"     mom_service_port = 15002\n"
	tl := ParseString(text, "p", Options{})
	var got []PBSNodeStatus
	for _, a := range tl.Artifacts {
		if a.Kind == KindPBSNodes {
			got = append(got, a.Data.(PBSNodeStatus))
		}
	}
	if len(got) != 1 {
		t.Fatalf("artifacts %+v", tl.Artifacts)
	}
	g := got[0]
	if g.Node != "node2801.example.org" || g.PhysMemKB != 4047312 || g.AvailMemKB != 12224780 || g.TotMemKB != 12435916 || g.SwapKB != 12435916-4047312 || g.NCPUs != 2 || g.LoadAvg != 0.01 || g.State != "free" {
		t.Errorf("%+v", g)
	}
	if tl.Host.MemTotalKB != 0 || len(tl.Samples) > 0 {
		t.Errorf("a cluster node's figures read as this host's: MemTotal %d, %d samples", tl.Host.MemTotalKB, len(tl.Samples))
	}
	for name, text := range map[string]string{
		"sentence":         "My nodes show physmem=4047312kb and availmem=12224780kb in status, is that right?\n",
		"PBS Pro":          "     resources_available.mem = 263921096kb\n     resources_assigned.mem = 0kb\n",
		"cut before avail": "     status = rectime=1467397975,jobs=,state=free,loadave=0.25,ncpus=2,physmem=4047312kb,avail\n",
		"other status":     "     status = ok,physmem=unknown,availmem=unknown\n",
	} {
		tl := ParseString(text, "p", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindPBSNodes {
				t.Errorf("%s: %+v", name, a)
			}
		}
	}
	if !strings.Contains(got[0].NotRead, "not this host's") {
		t.Errorf("not_read %q", got[0].NotRead)
	}
}
