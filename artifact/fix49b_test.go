package artifact

import (
	"strings"
	"testing"
)

// fix49b: leftovers of rounds 42 and 43, by class: the shell's "Killed" glued to an
// unfinished progress line and a runner's "Command failed with status 137" (corpus 4072);
// a Mem-Info zone line cut before its name (corpus 4000); smartmontools' banner naming the
// kernel (corpus 4055); docker info from Triton's sdc-docker (corpus 3049).

// unreadWhyAt: the reason line no of text was named unread with, "" when it was not.
func unreadWhyAt(text string, no int) string {
	tl := ParseString(text, "t", Options{})
	for _, u := range tl.Unparsed {
		if u.FirstLine <= no && no <= u.LastLine {
			return u.Why
		}
	}
	return ""
}

func TestFix49bKilledAfterProgressDots(t *testing.T) {
	// corpus 4072's fence: Django's migrate line, the shell's word after its dots, then
	// tutor's error for docker-compose's exit status.
	const text = "```\nApplying consent.0001_initial...Killed\nError: Command failed with status 137: docker-compose -f /home/edx/.local/share/tutor/env/local/docker-compose.yml --project-name tutor_local exec lms sh -e -c dockerize -wait tcp://mysql:3306 -timeout 20s\n```\n"
	if why := unreadWhyAt(text, 2); why != killedAfterProgressDotsWhy {
		t.Errorf("line 2 named %q, want the shell's Killed after a progress line", why)
	}
	if why := unreadWhyAt(text, 3); why != commandFailed137Why {
		t.Errorf("line 3 named %q, want the runner's status 137", why)
	}
	tl := ParseString(text, "t", Options{})
	if NothingRead(tl) && len(tl.Unparsed) == 0 {
		t.Error("the text is still evidence-free (exit 3)")
	}
	if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("a SIGKILL alone read as an event: %+v %+v", tl.Events, tl.RuntimeOOMs)
	}
	for _, s := range []string{
		"  Applying auth.0012_alter_user_first_name_max_length...Killed",
		"[3/7] Building wheel for numpy ... Killed",
		"Compiling serde v1.0.130…Killed",
	} {
		if !killedAfterProgressDots(s) {
			t.Errorf("%q: not read as the shell's Killed after a progress line", s)
		}
	}
	// counter-cases: prose, a question, a word after Killed, no step before the dots, a
	// verb not in -ing, a sentence that tells of the message.
	for _, s := range []string{
		"I waited and waited... Killed it myself",
		"then... Killed",
		"Applying the migration... Killed?",
		"Applied consent.0001_initial...Killed",
		"Is it normal that Applying migrations...Killed",
		"It printed Applying consent...Killed",
		"Applying consent.0001_initial... OK",
	} {
		if killedAfterProgressDots(s) {
			t.Errorf("%q: read as the shell's Killed after a progress line", s)
		}
	}
	for _, s := range []string{
		"Error: Command failed with status 137: docker-compose exec lms sh",
		"ERROR: command failed with status 137",
	} {
		if !commandFailed137(s) {
			t.Errorf("%q: not read as a runner's status 137", s)
		}
	}
	for _, s := range []string{
		"Error: Command failed with status 1: docker-compose exec lms sh",
		"Error: Command failed with status 1370: x",
		"If the command failed with status 137, raise the droplet's memory",
	} {
		if commandFailed137(s) {
			t.Errorf("%q: read as a runner's status 137", s)
		}
	}
}

// corpus 4000: the excerpt starts mid-line in the Normal zone's Mem-Info line.
const cutZone4000 = `olated(file):0kB present:5242880kB managed:5110908kB mlocked:4kB dirty:12kB writeback:264kB mapped:31872kB shmem:4631472kB slab_reclaimable:22564kB slab_unreclaimable:15808kB kernel_stack:2560kB pagetables:9924kB unstable:0kB bounce:0kB free_pcp:120kB local_pcp:120kB free_cma:0kB writeback_tmp:0kB pages_scanned:75976 all_unreclaimable? yes
May  8 17:49:09 jibri kernel: [ 1981.614752] lowmem_reserve[]: 0 0 0 0 0
May  8 17:49:09 jibri kernel: [ 1981.614754] Node 0 DMA: 1*4kB (U) 1*8kB (U) 1*16kB (U) 1*32kB (U) 1*64kB (U) 1*128kB (U) 1*256kB (U) 0*512kB 1*1024kB (U) 1*2048kB (M) 3*4096kB (M) = 15868kB
May  8 17:49:09 jibri kernel: [ 1981.614765] Node 0 DMA32: 146*4kB (UME) 77*8kB (UE) 94*16kB (UME) 61*32kB (UE) 27*64kB (UME) 9*128kB (UE) 4*256kB (UME) 1*512kB (U) 1*1024kB (U) 1*2048kB (M) 8*4096kB (UM) = 44912kB
May  8 17:49:09 jibri kernel: [ 1981.614775] Node 0 Normal: 243*4kB (UE) 121*8kB (UME) 162*16kB (UE) 59*32kB (E) 45*64kB (UME) 20*128kB (UME) 5*256kB (UE) 3*512kB (UE) 1*1024kB (U) 1*2048kB (U) 6*4096kB (UM) = 42324kB
`

func TestFix49bCutZoneLine(t *testing.T) {
	tl := ParseString(cutZone4000, "t", Options{})
	var cz *CutZoneLine
	for _, a := range tl.Artifacts {
		if c, ok := a.Data.(CutZoneLine); ok {
			cz = &c
		}
	}
	if cz == nil {
		t.Fatalf("no cut zone line read; unparsed %+v", tl.Unparsed)
	}
	if cz.Zone != "Normal" || cz.Node != 0 || !cz.AllUnreclaimable || !strings.Contains(cz.NameWhy, "DMA, DMA32, Normal") {
		t.Errorf("cut zone = %+v", *cz)
	}
	if v, _ := cz.Fields.Get("shmem_kb"); v != 4631472 {
		t.Errorf("shmem_kb = %d", v)
	}
	if _, ok := cz.Fields.Get("olated(file)_kb"); ok {
		t.Error("the cut first field read as a counter")
	}
	if len(tl.ZoneFragments) != 1 {
		t.Fatalf("fragments: %+v", tl.ZoneFragments)
	}
	z := tl.ZoneFragments[0].Zone
	if au, _ := z.Fields.Get("all_unreclaimable"); z.Name != "Normal" || au != 1 {
		t.Errorf("fragment: %+v", z)
	}
	if p, _ := z.Fields.Get("present"); p != 5242880/4 {
		t.Errorf("present = %d pages, want %d", p, 5242880/4)
	}
	for _, u := range tl.Unparsed {
		if u.FirstLine == 1 {
			t.Errorf("line 1 still unparsed: %s", u.Why)
		}
	}
	// A whole zone line after the cut one: the cut one is the zone before it in the buddy
	// lines' order.
	two := strings.Replace(cutZone4000, "May  8 17:49:09 jibri kernel: [ 1981.614752] lowmem_reserve[]: 0 0 0 0 0\n",
		"May  8 17:49:09 jibri kernel: [ 1981.614752] lowmem_reserve[]: 0 0 3000 3000\nMay  8 17:49:09 jibri kernel: [ 1981.614753] Node 0 Normal free:42324kB min:42000kB low:52000kB high:63000kB present:5242880kB managed:5110908kB pages_scanned:0 all_unreclaimable? no\nMay  8 17:49:09 jibri kernel: [ 1981.614753] lowmem_reserve[]: 0 0 0 0\n", 1)
	tl = ParseString(two, "t", Options{})
	if len(tl.ZoneFragments) != 1 || tl.ZoneFragments[0].Zone.Name != "DMA32" {
		t.Errorf("cut line before a whole Normal line: %+v", tl.ZoneFragments)
	}
	// Counter-cases: a DMA-sized zone's mark (normal on healthy hosts) is kept but not
	// handed to the rule; no dump after it: the name is not known; a sentence that ends so;
	// a whole zone line is the dump's reader's.
	small := strings.Replace(cutZone4000, "present:5242880kB", "present:15992kB", 1)
	if tl := ParseString(small, "t", Options{}); len(tl.ZoneFragments) != 0 {
		t.Errorf("a 16 MiB zone's mark handed to the rule: %+v", tl.ZoneFragments)
	}
	alone := strings.SplitAfter(cutZone4000, "\n")[0]
	if tl := ParseString(alone, "t", Options{}); len(tl.ZoneFragments) != 1 || tl.ZoneFragments[0].Zone.Name != "" || tl.ZoneFragments[0].Zone.Node != -1 {
		t.Errorf("a cut line alone: %+v", tl.ZoneFragments)
	}
	for _, s := range []string{
		"Is the zone all_unreclaimable? yes",
		"present:5242880kB all_unreclaimable? yes",
		"Node 0 Normal free:42324kB min:42000kB low:52000kB high:63000kB present:5242880kB managed:5110908kB pages_scanned:75976 all_unreclaimable? yes",
		// corpus 933: a whole line behind a quote and a colon no reader strips
		": [  454.007025] Node 0 DMA32 free:1540kB min:4000kB low:5000kB high:6000kB present:1018068kB pages_scanned:0 all_unreclaimable? no",
	} {
		if isCutZoneTail(s) {
			t.Errorf("%q: read as a cut zone line", s)
		}
	}
}

func TestFix49bSmartmontoolsBanner(t *testing.T) {
	// corpus 4055's zap log line
	const text = "2022-10-31T21:19:51.996Z        error   failed to enable S.M.A.R.T: smartctl 7.2 2020-12-30 r5155 [x86_64-linux-5.18.17-edge] (local build)\n"
	var h hostFacts
	ls := SplitLines(text)
	h.scan(&ls[0])
	if h.kernel != "5.18.17-edge" || h.arch != "x86_64" {
		t.Errorf("kernel %q arch %q, want 5.18.17-edge x86_64", h.kernel, h.arch)
	}
	if rel, arch, ok := smartmontoolsBanner("smartd 6.6 2017-11-05 r4594 [armv7l-linux-4.19.66-v7+] (local build)"); !ok || rel != "4.19.66-v7+" || arch != "armv7l" {
		t.Errorf("smartd banner: %q %q %v", rel, arch, ok)
	}
	// counter-cases: the build host's triple (no uname), another system's banner, a sentence.
	for _, s := range []string{
		"smartctl 7.2 2020-12-30 r5155 [x86_64-pc-linux-gnu] (local build)",
		"smartctl 7.2 2020-12-30 r5155 [FreeBSD 13.1-RELEASE amd64] (local build)",
		"I built smartctl from the x86_64-linux-gnu tree",
	} {
		if rel, _, ok := smartmontoolsBanner(s); ok {
			t.Errorf("%q: read release %q", s, rel)
		}
	}
}

func TestFix49bDockerInfoSmartDataCenter(t *testing.T) {
	// corpus 3049: docker info against Triton's sdc-docker
	const text = "$ docker info | egrep -v '(SDCAccount|ID):'\nContainers: 0\nImages: 119\nStorage Driver: sdc\nExecution Driver: sdc-0.3.0\nLogging Driver: json-file\nKernel Version: 3.12.0-1-amd64\nOperating System: SmartDataCenter\nCPUs: 0\nTotal Memory: 0 B\nName: us-east-3b\n"
	tl := ParseString(text, "t", Options{})
	if tl.Host.Kernel != "" {
		t.Errorf("kernel %q read from sdc-docker's placeholder", tl.Host.Kernel)
	}
	// With nothing else read, the text is named SmartOS's rather than called empty.
	if tl := ParseString("Kernel Version: 3.12.0-1-amd64\nOperating System: SmartDataCenter\n", "t", Options{}); !strings.HasPrefix(tl.Host.OtherOS, "SmartOS") {
		t.Errorf("other OS %q, want SmartOS", tl.Host.OtherOS)
	}
	// a later bare version is not taken for the kernel either
	tl = ParseString(text+"Jan 21 00:22:36.261 [notice] Tor v0.2.7.6 running on Linux with Libevent 2.0.22-stable\n", "t", Options{})
	if tl.Host.Kernel != "" {
		t.Errorf("kernel %q read after sdc-docker's block", tl.Host.Kernel)
	}
	// counter-case: a Linux daemon's docker info keeps its kernel (corpus 3257)
	lin := strings.Replace(text, "Operating System: SmartDataCenter", "Operating System: Ubuntu 14.04.1 LTS", 1)
	if tl := ParseString(lin, "t", Options{}); !strings.HasPrefix(tl.Host.Kernel, "3.12.0-1") || tl.Host.OtherOS != "" {
		t.Errorf("a Linux daemon's docker info: kernel %q other %q", tl.Host.Kernel, tl.Host.OtherOS)
	}
}
