package artifact

import (
	"strconv"
	"strings"

	"headroom/model"
)

// OpenVZ/Virtuozzo user beancounters (pre-round 15, h15d), the container's resource limits
// as the kernel prints them (OpenVZ kernel/bc/proc.c: "Version: 2.5", then the header
// "%10s  %-12s %20s %20s %20s %20s %20s" of uid resource held maxheld barrier limit failcnt,
// then one row per resource, the first of each container prefixed with its id and a colon:
// "%10s%c %-12s %20lu ..."; the resource names are kernel/bc/beancounter.c ub_rnames):
//
//	Version: 2.5
//	       uid  resource                     held              maxheld              barrier                limit              failcnt
//	      101:  kmemsize                  2490368              3276800             14372700             14790164                    0
//	            lockedpages                     0                    0                  256                  256                    0
//	            ...
//
// failcnt counts the charges the container's own limit refused (kernel/bc/beancounter.c
// __charge_beancounter_locked: ub_parms[resource].failcnt++ when held would pass the
// barrier or limit the charge's strictness allows); barrier and limit 9223372036854775807
// (LONG_MAX) are "unlimited". `vzubc` prints the same rows humanized (vzctl's vzubc script):
// "resource|HELD Bar% Lim%|MAXH Bar% Lim%| BAR | LIM | FAIL" under "CT N | ...".
//
// Read whole, one model.Beancounter per row; the rules decide (diagnose beancounters.go).
const KindBeancounters = "user_beancounters"

// beancounterHeader is the header's fields in the kernel's order.
var beancounterHeader = []string{"uid", "resource", "held", "maxheld", "barrier", "limit", "failcnt"}

// beancounterResources are kernel/bc/beancounter.c's ub_rnames (with 2.6.32's swappages
// and the later VSwap rows): a row's name must be one of them.
var beancounterResources = map[string]bool{
	"kmemsize": true, "lockedpages": true, "privvmpages": true, "shmpages": true, "dummy": true,
	"numproc": true, "physpages": true, "vmguarpages": true, "oomguarpages": true,
	"numtcpsock": true, "numflock": true, "numpty": true, "numsiginfo": true, "tcpsndbuf": true,
	"tcprcvbuf": true, "othersockbuf": true, "dgramrcvbuf": true, "numothersock": true,
	"dcachesize": true, "numfile": true, "numiptent": true, "swappages": true,
}

// isBeancounterRow: a headerless paste's first row, "101:  kmemsize  N N N N N".
func isBeancounterRow(_, t string) bool {
	fs := fields(t)
	return len(fs) == 7 && strings.HasSuffix(fs[0], ":") && beancounterResources[fs[1]]
}

// beancounterRow reads one row's fields (with or without the container's "N:") into b,
// whose Container is the current one; it returns false for any other line.
func beancounterRow(fs []string, b *model.Beancounter) bool {
	if len(fs) == 7 {
		id := strings.TrimSuffix(fs[0], ":")
		if len(id) == len(fs[0]) || id == "" {
			return false
		}
		for k := 0; k < len(id); k++ {
			if id[k] < '0' || id[k] > '9' {
				return false
			}
		}
		b.Container = id
		fs = fs[1:]
	}
	if len(fs) != 6 || b.Container == "" || !beancounterResources[fs[0]] {
		return false
	}
	var v [5]int64
	for k := range v {
		n, ok := atoi(fs[k+1])
		if !ok || n < 0 {
			return false
		}
		v[k] = n
	}
	b.Resource = fs[0]
	b.Held, b.MaxHeld, b.Barrier, b.Limit, b.Failcnt = v[0], v[1], v[2], v[3], v[4]
	return true
}

// beancounterCutRow reads a table's last row cut before its failcnt (a paste that ended in
// the row, "numflock  40  76  188  206      "): the kernel prints each field "%20lu", so the
// blanks after the limit show it was printed whole; a row ending in a digit may have lost
// digits ("vmguarpages 0 0 614400 92233720") and is not read. failcnt is -1, unknown.
func beancounterCutRow(t string, b *model.Beancounter) bool {
	if len(t) == 0 || (t[len(t)-1] != ' ' && t[len(t)-1] != '\t') {
		return false
	}
	fs := fields(t)
	if len(fs) != 5 || !beancounterResources[fs[0]] || b.Container == "" {
		return false
	}
	if !beancounterRow(append(fs[:5:5], "0"), b) {
		return false
	}
	b.Failcnt = -1
	return true
}

// tryBeancounters reads /proc/user_beancounters at i: its "Version:" line, its header, or
// (headerless) its first "N:" row.
func (d *doc) tryBeancounters(i int) int {
	j := i
	if rows := flatBeancounters(d.ls[i]); len(rows) > 0 {
		return d.addBeancounters(i, i+1, rows)
	}
	if fs := fields(d.ls[j].Text); len(fs) == 2 && fs[0] == "Version:" {
		if j+1 >= len(d.ls) {
			return 0
		}
		j++
	}
	if fs := fields(d.ls[j].Text); len(fs) == len(beancounterHeader) && fs[0] == "uid" {
		for k, h := range beancounterHeader {
			if fs[k] != h {
				return 0
			}
		}
		j++
	} else if j != i {
		return 0 // "Version: 2.5" without the header is any program's version line
	}
	var rows []model.Beancounter
	cur := model.Beancounter{}
	end := j
	for ; end < len(d.ls); end++ {
		b := cur
		if !beancounterRow(fields(d.ls[end].Text), &b) {
			if len(rows) > 0 && beancounterCutRow(d.ls[end].Text, &b) {
				b.Source = "line " + strconv.Itoa(d.ls[end].No) + " (/proc/user_beancounters, cut before failcnt)"
				rows = append(rows, b)
				end++
			}
			break
		}
		b.Source = "line " + strconv.Itoa(d.ls[end].No) + " (/proc/user_beancounters)"
		cur.Container = b.Container
		rows = append(rows, b)
	}
	if len(rows) == 0 {
		return 0
	}
	return d.addBeancounters(i, end, rows)
}

// flatBeancounters reads the file flattened onto one line, as a page that lost its line
// breaks or a re-flowed paste prints it: "Version: 2.5 uid resource held maxheld barrier
// limit failcnt 101: kmemsize 2490368 3276800 14372700 14790164 0 lockedpages 0 0 256 256 0
// ...": the header's seven words in order, then the rows' fields in the kernel's order (the
// first row of each container after its "N:"). Reading stops at the first field that breaks
// that order; a row cut short is not kept.
func flatBeancounters(l Line) []model.Beancounter {
	fs := fields(l.Text)
	h := 0
	for h < len(fs) && fs[h] != "uid" {
		h++
	}
	if h+len(beancounterHeader) >= len(fs) || h > 2 {
		return nil // the header leads the line ("Version: 2.5" at most before it)
	}
	for k, w := range beancounterHeader {
		if fs[h+k] != w {
			return nil
		}
	}
	var rows []model.Beancounter
	cur := model.Beancounter{}
	for k := h + len(beancounterHeader); k+6 <= len(fs); {
		n := 6
		if strings.HasSuffix(fs[k], ":") {
			n = 7
			if k+7 > len(fs) {
				break
			}
		}
		b := cur
		if !beancounterRow(fs[k:k+n], &b) {
			break
		}
		b.Source = "line " + strconv.Itoa(l.No) + " (/proc/user_beancounters, on one line)"
		cur.Container = b.Container
		rows = append(rows, b)
		k += n
	}
	return rows
}

// The rows as a pretty-printed JSON object keyed by resource, as Chef ohai's openvz plugin
// prints /proc/user_beancounters (`ohai openvz`): "kmemsize": { "held": N, "maxheld": N,
// "barrier": N, "limit": N, "failcnt": N }, one object per resource in any order, its
// members in any order. The container is the one the tool ran in: its id is not printed.
// Read line by line, so a paste cut inside the object keeps the resources printed whole;
// another key's object of numbers between them ("memory": {"total": N}) is passed over.

// jsonObjectKey: `"name": {` alone on its line, the name returned.
func jsonObjectKey(t string) (string, bool) {
	s := strings.TrimSpace(t)
	if len(s) < 6 || s[0] != '"' || !strings.HasSuffix(s, "{") {
		return "", false
	}
	e := strings.IndexByte(s[1:], '"')
	if e <= 0 || strings.TrimSpace(s[e+2:len(s)-1]) != ":" {
		return "", false
	}
	return s[1 : e+1], true
}

// isBeancounterJSONKey: the first resource's `"kmemsize": {`.
func isBeancounterJSONKey(_, t string) bool {
	k, ok := jsonObjectKey(t)
	return ok && beancounterResources[k]
}

// bcJSONParts: the object's members, as Beancounter's fields (0 held ... 4 failcnt).
var bcJSONParts = map[string]int{"held": 0, "maxheld": 1, "barrier": 2, "limit": 3, "failcnt": 4}

// tryBeancounterJSON reads the objects from line i on.
func (d *doc) tryBeancounterJSON(i int) int {
	var rows []model.Beancounter
	end := i // the lines taken: up to the last object closed
	for k := i; k < len(d.ls); {
		name, ok := jsonObjectKey(d.ls[k].Text)
		if !ok {
			break
		}
		var v [5]int64
		seen := 0
		j := k + 1
		closed := false
		for ; j < len(d.ls); j++ {
			s := strings.TrimSpace(d.ls[j].Text)
			if s == "}" || s == "}," {
				closed = true
				break
			}
			key, val, ok := jsonNumberMember(s)
			if !ok {
				break
			}
			if p, ok := bcJSONParts[key]; ok {
				v[p] = val
				seen |= 1 << p
			}
		}
		if !closed {
			break // cut inside the object, or not an object of numbers
		}
		if beancounterResources[name] {
			if seen != 1<<5-1 {
				break
			}
			rows = append(rows, model.Beancounter{Container: "(the one ohai ran in)", Resource: name,
				Held: v[0], MaxHeld: v[1], Barrier: v[2], Limit: v[3], Failcnt: v[4],
				Source: "line " + strconv.Itoa(d.ls[k].No) + " (user_beancounters as JSON)"})
		}
		k = j + 1
		end = k
	}
	if len(rows) == 0 {
		return 0
	}
	return d.addBeancounters(i, end, rows)
}

// jsonNumberMember: `"key": 123,` (a non-negative integer), the key and the number.
func jsonNumberMember(s string) (string, int64, bool) {
	if len(s) < 5 || s[0] != '"' {
		return "", 0, false
	}
	e := strings.IndexByte(s[1:], '"')
	if e <= 0 {
		return "", 0, false
	}
	rest := strings.TrimSpace(s[e+2:])
	if !strings.HasPrefix(rest, ":") {
		return "", 0, false
	}
	n, ok := atoi(strings.TrimSuffix(strings.TrimSpace(rest[1:]), ","))
	if !ok || n < 0 {
		return "", 0, false
	}
	return s[1 : e+1], n, true
}

// vzubc (vzctl's scripts/vzubc) prints the rows humanized under a header per container:
//
//	CT 101       | HELD Bar% Lim%| MAXH Bar% Lim%| BAR | LIM | FAIL
//	-------------+---------------+---------------+-----+-----+------
//	     kmemsize|19.3M 0.9% 0.9%|20.8M   1%   1%|   2G|   2G|    -
//	  privvmpages| 500M  97%  97%| 512M 100% 100%| 512M| 512M| 1021
//
// "-" for zero (and for an unlimited barrier or limit), sizes with K, M, G (powers of 1024),
// the *pages resources shown in bytes. FAIL is read exactly; a size is read back to the
// row's unit (bytes, or 4 KiB pages for *pages), as exact as its three digits; an unlimited
// or unknown barrier and limit is -1 (not printed). A row a forum's bold markers wrap
// ("privvmpages**| ... | **1021**") reads the same.
func (d *doc) tryVzubc(i int) int {
	h := strings.ReplaceAll(d.ls[i].Text, "**", "")
	fs := fields(h)
	if len(fs) < 3 || fs[0] != "CT" || !strings.Contains(h, "HELD") || !strings.HasSuffix(strings.TrimSpace(h), "FAIL") || strings.Count(h, "|") != 5 {
		return 0
	}
	ct := strings.TrimSuffix(fs[1], "|")
	var rows []model.Beancounter
	end := i + 1
	if end < len(d.ls) && strings.Trim(strings.TrimSpace(d.ls[end].Text), "-+") == "" {
		end++ // the rule under the header
	}
	for ; end < len(d.ls); end++ {
		b, ok := vzubcRow(ct, d.ls[end].Text)
		if !ok {
			break
		}
		b.Source = "line " + strconv.Itoa(d.ls[end].No) + " (vzubc)"
		rows = append(rows, b)
	}
	if len(rows) == 0 {
		return 0
	}
	return d.addBeancounters(i, end, rows)
}

// vzubcRow reads one row of vzubc's table.
func vzubcRow(ct, t string) (model.Beancounter, bool) {
	parts := strings.Split(strings.ReplaceAll(t, "**", ""), "|")
	if len(parts) != 6 {
		return model.Beancounter{}, false
	}
	res := strings.TrimSpace(parts[0])
	if !beancounterResources[res] {
		return model.Beancounter{}, false
	}
	held, maxh := fields(parts[1]), fields(parts[2])
	if len(held) != 3 || len(maxh) != 3 {
		return model.Beancounter{}, false
	}
	pages := strings.HasSuffix(res, "pages")
	b := model.Beancounter{Container: ct, Resource: res}
	for k, f := range [5]string{held[0], maxh[0], parts[3], parts[4], parts[5]} {
		v, ok := vzubcValue(strings.TrimSpace(f), pages && k < 4)
		if !ok {
			return model.Beancounter{}, false
		}
		if v < 0 && k < 2 || v < 0 && k == 4 {
			v = 0 // "-" is zero for held, maxheld and the failures
		}
		*[5]*int64{&b.Held, &b.MaxHeld, &b.Barrier, &b.Limit, &b.Failcnt}[k] = v
	}
	return b, true
}

// vzubcValue reads "1021", "4.88K", "512M" ("-": -1); a size of a *pages row is returned in
// pages.
func vzubcValue(s string, pages bool) (int64, bool) {
	if s == "-" {
		return -1, true
	}
	mul := 1.0
	if n := len(s); n > 1 {
		switch s[n-1] {
		case 'K':
			mul = 1 << 10
		case 'M':
			mul = 1 << 20
		case 'G':
			mul = 1 << 30
		case 'T':
			mul = 1 << 40
		}
		if mul > 1 {
			s = s[:n-1]
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	if pages && mul > 1 {
		return int64(f * mul / 4096), true
	}
	return int64(f * mul), true
}

// vzlist's beancounter columns (vzctl src/vzlist.c field_names, UBC_FIELD): the header
// names a resource ("KMEMSIZE", "PRIVVMP", "TCPSNDB", ...) and a part by its suffix (none
// held, ".M" maxheld, ".B" barrier, ".L" limit, ".F" failcnt); each value "%10lu", "-" when
// unknown. `vzlist -o ctid,tcpsndbuf.f,privvmpages,privvmpages.l` and the default `vzlist`
// (CTID NPROC STATUS IP_ADDR HOSTNAME) print them under "CTID".
var vzlistUBC = map[string]string{
	"KMEMSIZE": "kmemsize", "LOCKEDP": "lockedpages", "PRIVVMP": "privvmpages", "SHMP": "shmpages",
	"NPROC": "numproc", "PHYSP": "physpages", "VMGUARP": "vmguarpages", "OOMGUARP": "oomguarpages",
	"NTCPSOCK": "numtcpsock", "NFLOCK": "numflock", "NPTY": "numpty", "NSIGINFO": "numsiginfo",
	"TCPSNDB": "tcpsndbuf", "TCPRCVB": "tcprcvbuf", "OTHSOCKB": "othersockbuf", "DGRAMRB": "dgramrcvbuf",
	"NOTHSOCK": "numothersock", "DCACHESZ": "dcachesize", "NFILE": "numfile", "NIPTENT": "numiptent",
	"SWAPP": "swappages",
}

// vzlistPart: a header's suffix to the Beancounter field it fills (0 held ... 4 failcnt).
var vzlistPart = map[string]int{"": 0, ".M": 1, ".B": 2, ".L": 3, ".F": 4}

// tryVzlist reads vzlist's table at i when its header names at least one beancounter
// column; the other columns (STATUS, IP_ADDR, HOSTNAME, ...) are skipped, and a row whose
// fields do not line up with the header (several addresses) is passed over.
func (d *doc) tryVzlist(i int) int {
	hdr := fields(d.ls[i].Text)
	if len(hdr) < 2 || hdr[0] != "CTID" {
		return 0
	}
	type col struct {
		res  string
		part int
	}
	cols := make([]col, len(hdr))
	ubc := 0
	for k, h := range hdr[1:] {
		name, suffix := h, ""
		if n := strings.IndexByte(h, '.'); n > 0 {
			name, suffix = h[:n], h[n:]
		}
		part, okP := vzlistPart[suffix]
		if res, ok := vzlistUBC[name]; ok && okP {
			cols[k+1] = col{res, part}
			ubc++
		}
	}
	if ubc == 0 {
		return 0
	}
	var rows []model.Beancounter
	end := i + 1
	for ; end < len(d.ls); end++ {
		fs := fields(d.ls[end].Text)
		if len(fs) == 0 || !isDigits(fs[0]) && strings.Count(fs[0], "-") != 4 {
			break // a CTID is a number or (vzctl 7) a UUID
		}
		if len(fs) != len(hdr) {
			continue
		}
		byRes := map[string]*model.Beancounter{}
		var order []string
		for k, c := range cols {
			if c.res == "" || fs[k] == "-" {
				continue
			}
			v, ok := atoi(fs[k])
			if !ok || v < 0 {
				continue
			}
			b := byRes[c.res]
			if b == nil {
				b = &model.Beancounter{Container: fs[0], Resource: c.res, Held: -1, MaxHeld: -1, Barrier: -1, Limit: -1, Failcnt: -1,
					Source: "line " + strconv.Itoa(d.ls[end].No) + " (vzlist)"}
				byRes[c.res] = b
				order = append(order, c.res)
			}
			parts := [5]*int64{&b.Held, &b.MaxHeld, &b.Barrier, &b.Limit, &b.Failcnt}
			*parts[c.part] = v
		}
		for _, r := range order {
			rows = append(rows, *byRes[r])
		}
	}
	if end == i+1 {
		return 0
	}
	return d.addBeancounters(i, end, rows)
}

// CloudLinux's lveinfo (lve-stats; its documented columns: ID, aCPU mCPU lCPU, aEP mEP lEP,
// aVMEM mVMEM lVMEM, aPMEM mPMEM lPMEM, aIO mIO lIO, and the faults fVMEM, fPMEM, fEP, fNPROC;
// lve-stats 0.x printed aMem mMem lMem MemF MepF): one row per LVE (a user's lightweight
// virtual environment, its own limits). The fault columns are read as the LVE's failcnt:
// fPMEM (the LVE's physical memory limit refused pages: reclaim, then its OOM killer),
// fVMEM and MemF (its virtual memory limit refused an allocation: ENOMEM), fEP and MepF
// (its entry processes limit refused a request: a 508, no memory) and fNPROC (a fork).
// The other columns carry units (10M, 1G) and are not read. Rows bordered with '|' (a
// table printed with its rules) are read the same.
var lveFaultColumns = map[string]string{
	"fpmem": "lve_pmem", "pmemf": "lve_pmem", "fvmem": "lve_vmem", "vmemf": "lve_vmem",
	"memf": "lve_vmem", "fep": "lve_ep", "mepf": "lve_ep", "epf": "lve_ep",
	"fnproc": "lve_nproc", "nprocf": "lve_nproc",
}

// lveFields: a row's fields without the table's '|' rules.
func lveFields(t string) []string {
	return strings.Fields(strings.ReplaceAll(t, "|", " "))
}

// tryLveinfo reads lveinfo's table at i when its header has a fault column.
func (d *doc) tryLveinfo(i int) int {
	hdr := lveFields(d.ls[i].Text)
	if len(hdr) < 3 || hdr[0] != "ID" {
		return 0
	}
	res := make([]string, len(hdr))
	n := 0
	for k, h := range hdr {
		if r, ok := lveFaultColumns[strings.ToLower(h)]; ok {
			res[k] = r
			n++
		}
	}
	if n == 0 {
		return 0
	}
	var rows []model.Beancounter
	end := i + 1
	for ; end < len(d.ls); end++ {
		t := strings.TrimSpace(d.ls[end].Text)
		if strings.HasPrefix(t, "+-") || strings.HasPrefix(t, "--") {
			continue // the table's rules
		}
		fs := lveFields(t)
		if len(fs) != len(hdr) {
			break
		}
		for k, r := range res {
			if r == "" {
				continue
			}
			v, ok := atoi(fs[k])
			if !ok || v < 0 {
				continue
			}
			rows = append(rows, model.Beancounter{Container: fs[0], Resource: r, Held: -1, MaxHeld: -1, Barrier: -1, Limit: -1, Failcnt: v,
				Source: "line " + strconv.Itoa(d.ls[end].No) + " (lveinfo)"})
		}
	}
	if len(rows) == 0 {
		return 0
	}
	return d.addBeancounters(i, end, rows)
}

// addBeancounters keeps the rows read from lines i to end-1 and returns the lines taken.
func (d *doc) addBeancounters(i, end int, rows []model.Beancounter) int {
	d.segSeq++
	d.tl.Beancounters = append(d.tl.Beancounters, rows...)
	d.addArtifact(KindBeancounters, d.ls[i].No, d.ls[end-1].No, rows)
	return end - i
}

// The OpenVZ kernel's own line for a refused charge (kernel/bc/beancounter.c
// __charge_beancounter_locked and the kmem and RAM paths: printk(KERN_INFO "Fatal resource
// shortage: %s, UB %d.\n", ub_rnames[resource], ub->ub_uid), ub_name in later trees, and
// "... UB %d. More physical swap space required." for swappages), rate-limited: each line
// is at least one failcnt of that container's resource. CloudLinux's LVE kernels print it
// with the LVE's id as the UB.
const beancounterShortage = "Fatal resource shortage: "

// beancounterShortageLine reads the line's resource and container.
func beancounterShortageLine(t string) (res, id string, ok bool) {
	k := strings.Index(t, beancounterShortage)
	if k < 0 {
		return "", "", false
	}
	rest := t[k+len(beancounterShortage):]
	j := strings.Index(rest, ", UB ")
	if j <= 0 || !beancounterResources[rest[:j]] {
		return "", "", false
	}
	id = rest[j+len(", UB "):]
	e := strings.IndexByte(id, '.')
	if e <= 0 || strings.IndexByte(id[:e], ' ') >= 0 {
		return "", "", false
	}
	return rest[:j], id[:e], true
}

// beancounterShortageSeen counts line no's refused charge into the container's row (one
// row per container and resource, its Failcnt the lines seen).
func (d *doc) beancounterShortageSeen(no int, t string) bool {
	res, id, ok := beancounterShortageLine(t)
	if !ok {
		return false
	}
	for k := len(d.tl.Beancounters) - 1; k >= 0; k-- {
		b := &d.tl.Beancounters[k]
		if b.Container == id && b.Resource == res && strings.HasSuffix(b.Source, "(\"Fatal resource shortage\")") {
			b.Failcnt++
			return true
		}
	}
	b := model.Beancounter{Container: id, Resource: res, Held: -1, MaxHeld: -1, Barrier: -1, Limit: -1, Failcnt: 1,
		Source: "line " + strconv.Itoa(no) + ", first of the kernel's lines (\"Fatal resource shortage\")"}
	d.tl.Beancounters = append(d.tl.Beancounters, b)
	d.addArtifact(KindBeancounters, no, no, []model.Beancounter{b})
	return true
}

// A sentence stating that a container reached one of its beancounters' limits, as a hosting
// panel's resource alert words it ("I get resource alerts ... saying they reached the
// dcachesize limit"): the author's report of a failcnt the text does not show. Named as
// unread, with the file that would show it; no finding rests on it. A sentence that only
// names the resource ("set the dcachesize limit higher"), asks, or supposes ("if you hit the
// privvmpages limit") is not one.
var bcReachWords = []string{"reached", "reaching", "reaches", "hit ", "hits ", "hitting", "exceeded", "exceeding", "exceeds", "ran into", "running into", "runs into"}

// beancounterLimitStated says why line t is such a statement.
func beancounterLimitStated(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "limit") && !strings.Contains(t, "barrier") {
		return "", false
	}
	l := strings.ToLower(t)
	if strings.Contains(l, "?") || strings.Contains(l, "if ") || strings.Contains(l, "when") {
		return "", false
	}
	res, at := "", len(l)
	for r := range beancounterResources { // the first named in the line (a map: no order of its own)
		if k := strings.Index(l, r); k >= 0 && k < at && (k == 0 || !isWordByte(l[k-1])) && r != "dummy" {
			if e := k + len(r); e == len(l) || !isWordByte(l[e]) || l[e] == 's' && (e+1 == len(l) || !isWordByte(l[e+1])) {
				res, at = r, k
			}
		}
	}
	if res == "" {
		return "", false
	}
	for _, w := range bcReachWords {
		if strings.Contains(l, w) {
			return "a statement that an OpenVZ/Virtuozzo container reached its " + res + " beancounter limit (a hosting panel's resource alert): the container's own limit, counted in failcnt, not the host's memory; the figures are not in the text: `cat /proc/user_beancounters` in the container shows held, maxheld, barrier, limit and failcnt", true
		}
	}
	return "", false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
