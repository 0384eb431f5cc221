package kernel

import (
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"
)

// sysctlKeysText is the list of known sysctl keys: this development host's `sysctl -a`
// (per-interface keys generalised to '*') plus historical keys with the kernels that had
// them. See the header of the file for how it was made.
//
//go:embed sysctlkeys.txt
var sysctlKeysText string

type sysctlKeys struct {
	exact    map[string]string // key → note ("" for current keys)
	patterns [][]string        // keys with '*' components, split on '.'
	patNote  []string
	byLast   map[string][]string // last component → full keys (for resolving "tcp_wmem")
	byWords  map[string][]string // directory + the last component's words sorted → full keys
	all      []string
}

var (
	keysOnce sync.Once
	keys     *sysctlKeys
)

func knownKeys() *sysctlKeys {
	keysOnce.Do(func() {
		k := &sysctlKeys{exact: map[string]string{}, byLast: map[string][]string{}, byWords: map[string][]string{}}
		for _, ln := range strings.Split(sysctlKeysText, "\n") {
			ln = strings.TrimSpace(ln)
			if ln == "" || ln[0] == '#' {
				continue
			}
			key, note, _ := strings.Cut(ln, "|")
			key, note = strings.TrimSpace(key), strings.TrimSpace(note)
			if strings.Contains(key, "*") {
				k.patterns = append(k.patterns, strings.Split(key, "."))
				k.patNote = append(k.patNote, note)
			} else {
				k.exact[key] = note
			}
			k.all = append(k.all, key)
			last := key[strings.LastIndexByte(key, '.')+1:]
			k.byLast[last] = append(k.byLast[last], key)
			if !strings.Contains(key, "*") {
				w := wordsKey(key)
				k.byWords[w] = append(k.byWords[w], key)
			}
		}
		sort.Strings(k.all)
		keys = k
	})
	return keys
}

// SysctlNote returns what the key list says of a known key: "" for a key of current kernels,
// the era note for a historical one ("removed in 4.12 ..."). ok is false for an unknown key.
func SysctlNote(key string) (note string, ok bool) {
	k := knownKeys()
	key = NormaliseSysctlKey(key)
	if n, found := k.exact[key]; found {
		return n, true
	}
	parts := strings.Split(key, ".")
	for i, p := range k.patterns {
		if matchKeyPattern(p, parts) {
			return k.patNote[i], true
		}
	}
	return "", false
}

func matchKeyPattern(pat, parts []string) bool {
	if len(pat) != len(parts) {
		return false
	}
	for i := range pat {
		if pat[i] != "*" && pat[i] != parts[i] {
			return false
		}
	}
	return true
}

// NormaliseSysctlKey turns "/proc/sys/vm/min_free_kbytes", "vm/min_free_kbytes" and
// "vm.min_free_kbytes" into the dotted form.
func NormaliseSysctlKey(key string) string {
	key = strings.TrimSpace(key)
	key = strings.TrimPrefix(key, "/proc/sys/")
	if !strings.Contains(key, ".") || (strings.Contains(key, "/") && !strings.HasPrefix(key, "net.")) {
		key = strings.ReplaceAll(key, "/", ".")
	}
	return key
}

// SysctlKeysThrough is the kernel whose `sysctl -a` the list of known keys holds (its first
// line names it): a key added after it is unknown to the list, not to every kernel.
func SysctlKeysThrough() KernelVersion {
	first, _, _ := strings.Cut(sysctlKeysText, "\n")
	if _, after, ok := strings.Cut(first, "(Linux "); ok {
		if v, err := ParseKernelVersion(strings.TrimRight(after, "),")); err == nil {
			return v
		}
	}
	return KernelVersion{}
}

// KnownSysctl reports whether key exists in some Linux kernel (current keys of this host's
// kernel, or historical keys of older ones). For an unknown key, suggestion is the known key
// the author most likely meant: the same words in another order ("vm.min_kbytes_free" →
// "vm.min_free_kbytes"), else the closest by edit distance within the same top-level
// directory; "" when nothing is close.
func KnownSysctl(key string) (known bool, suggestion string) {
	key = NormaliseSysctlKey(key)
	if _, ok := SysctlNote(key); ok {
		return true, ""
	}
	return false, suggestSysctl(key)
}

// SysctlKeyPrefix reports whether some known key starts with prefix and is longer: a key
// cut short where a paste or a page ends ("net.ipv4.netfilter.ip_c").
func SysctlKeyPrefix(prefix string) bool {
	k := knownKeys()
	prefix = NormaliseSysctlKey(prefix)
	i := sort.SearchStrings(k.all, prefix)
	for ; i < len(k.all) && strings.HasPrefix(k.all[i], prefix); i++ {
		if k.all[i] != prefix {
			return true
		}
	}
	return false
}

// bsdSysctlNamespaces are the sysctl trees of the BSD-derived systems (FreeBSD's sysctl(3)
// MIB: kern, hw, machdep, vfs, security, and under net the protocol families inet, inet6,
// link, local, route), which no Linux kernel has: Linux's top level is abi, crypto, debug,
// dev, fs, kernel, net, sunrpc, user, vm, and its net tree names ipv4, ipv6, core, unix,
// netfilter (kernel/sysctl.c, net/sysctl_net.c).
var bsdSysctlNamespaces = []string{"kern.", "hw.", "machdep.", "vfs.", "security.bsd.", "security.mac.", "net.inet.", "net.inet6.", "net.link.", "net.local.", "net.route."}

// OtherOSSysctl reports whether key is in a BSD's sysctl tree, a namespace no Linux kernel
// has ("net.inet.tcp.nolocaltimewait", "kern.ipc.somaxconn"): another system's setting, not
// a Linux key written wrong.
func OtherOSSysctl(key string) bool {
	key = NormaliseSysctlKey(key)
	for _, p := range bsdSysctlNamespaces {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// SysctlDirectory reports whether key names a directory of keys (net.netfilter, net.ipv4,
// sunrpc) rather than a key: "/proc/sys/net/netfilter/" in prose names where keys live.
func SysctlDirectory(key string) bool {
	key = strings.TrimSuffix(NormaliseSysctlKey(key), ".")
	if key == "" {
		return false
	}
	return SysctlKeyPrefix(key+".") || slices.Contains(moduleSysctlDirs, key+".")
}

func suggestSysctl(key string) string {
	if len(key) > 128 {
		return "" // no sysctl key is this long; and the distance is quadratic in it
	}
	k := knownKeys()
	top, _, _ := strings.Cut(key, ".")
	if c := k.byWords[wordsKey(key)]; len(c) > 0 {
		return c[0]
	}
	best, bestD := "", 1<<30
	for _, cand := range k.all {
		if strings.Contains(cand, "*") {
			continue
		}
		ctop, _, _ := strings.Cut(cand, ".")
		if ctop != top {
			continue
		}
		d := editDistance(key, cand)
		if d < bestD || (d == bestD && cand < best) {
			best, bestD = cand, d
		}
	}
	limit := max(2, len(key)/6)
	if bestD <= limit {
		return best
	}
	return ""
}

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance.
func editDistance(a, b string) int {
	if a == b {
		return 0
	}
	la, lb := len(a), len(b)
	prev2 := make([]int, lb+1)
	prev := make([]int, lb+1)
	cur := make([]int, lb+1)
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}

// ResolveSysctlName turns a bare name used in prose ("tcp_wmem") into its full key
// ("net.ipv4.tcp_wmem") when exactly one known key ends with it.
func ResolveSysctlName(name string) (string, bool) {
	k := knownKeys()
	c := k.byLast[name]
	if len(c) == 2 && (sameVariable[c[0]] == c[1] || sameVariable[c[1]] == c[0]) {
		// Two names of one kernel variable: the name is no less exact for it.
		if _, alias := sameVariable[c[0]]; alias {
			return c[1], true
		}
		return c[0], true
	}
	if len(c) == 1 && !strings.Contains(c[0], "*") {
		return c[0], true
	}
	return "", false
}

// sameVariable maps a key to the key it is another name of: one variable, two files.
// net/netfilter/nf_conntrack_standalone.c registers nf_conntrack_max twice, as
// net.netfilter.nf_conntrack_max and, for the initial namespace, net.nf_conntrack_max (both
// on &nf_conntrack_max), so a bare "nf_conntrack_max" in prose names one value (corpus 1667).
var sameVariable = map[string]string{
	"net.nf_conntrack_max": "net.netfilter.nf_conntrack_max",
}

// wordsKey is a key's directory and the words of its last component in sorted order:
// "vm.min_kbytes_free" and "vm.min_free_kbytes" give the same wordsKey.
func wordsKey(key string) string {
	i := strings.LastIndexByte(key, '.')
	w := strings.FieldsFunc(key[i+1:], func(r rune) bool { return r == '_' || r == '-' })
	sort.Strings(w)
	return key[:i+1] + strings.Join(w, "_")
}

// SysctlMeans is the kernel key a key as written names, "" when it names none. A known key
// names itself. An unknown one names the key the author evidently meant, when that is
// beyond doubt: the same words in the same directory in another order, the typical slip
// (seed 000's "vm.min_kbytes_free" for vm.min_free_kbytes, a key no kernel had, which sysctl
// -w refuses), or the last components of exactly one known key ("tcp_mem", "ipv4.tcp_mem").
// A near spelling (KnownSysctl's edit-distance suggestion) is a guess and names nothing:
// a rule must not read a value under a key the text may not mean. Case is ignored, as
// memory's "VM.Min_Free_Kbytes" in prose still names the key. The lookups are map reads,
// so rules may call it per mention.
func SysctlMeans(written string) string {
	key := NormaliseSysctlKey(written)
	if key == "" {
		return ""
	}
	if _, ok := SysctlNote(key); ok {
		return key
	}
	if l := strings.ToLower(key); l != key {
		if _, ok := SysctlNote(l); ok {
			return l
		}
		key = l
	}
	k := knownKeys()
	if c := k.byWords[wordsKey(key)]; len(c) == 1 {
		return c[0]
	}
	if full, ok := ResolveSysctlName(key[strings.LastIndexByte(key, '.')+1:]); ok && strings.HasSuffix(full, "."+strings.Trim(key, ".")) {
		return full
	}
	return ""
}

// moduleSysctlDirs are the sysctl directories a loadable module registers when it loads
// (register_net_sysctl / register_sysctl from the module's init): sunrpc
// (net/sunrpc/sysctl.c, xprtsock.c: tcp_slot_table_entries, tcp_max_slot_table_entries, …),
// fs.nfs (fs/nfs/sysctl.c, fs/lockd/svc.c), net.netfilter and the legacy net.ipv4.netfilter
// (nf_conntrack and its protocol helpers), net.bridge (br_netfilter), net.ipv4.vs (ip_vs),
// and the protocol families built as modules. The key list is one host's `sysctl -a`: a key
// under these directories that it lacks may be a module's key that host never loaded, so
// its absence from the list says nothing.
var moduleSysctlDirs = []string{
	"sunrpc.", "fs.nfs.", "net.netfilter.", "net.ipv4.netfilter.", "net.bridge.",
	"net.ipv4.vs.", "net.sctp.", "net.rds.", "net.tipc.", "net.x25.", "net.ax25.",
	"net.rose.", "net.netrom.", "net.appletalk.", "net.ipx.", "net.llc.", "net.decnet.",
	"net.phonet.", "net.can.", "net.ieee802154.", "dev.raid.", "dev.scsi.", "dev.cdrom.",
	"dev.parport.", "dev.ipmi.", "fs.ocfs2.", "lnet.", "lustre.", "xen.",
}

// ModuleSysctl returns the directory a loadable module registers that key lies in
// (moduleSysctlDirs, "" for none), and whether the key list holds any key of it.
func ModuleSysctl(key string) (dir string, listed bool) {
	key = NormaliseSysctlKey(key)
	for _, d := range moduleSysctlDirs {
		if strings.HasPrefix(key, d) {
			k := knownKeys()
			i := sort.SearchStrings(k.all, d)
			return d, i < len(k.all) && strings.HasPrefix(k.all[i], d)
		}
	}
	return "", false
}
