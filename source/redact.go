package source

import (
	"bufio"
	"bytes"
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/internal/lazyre"
)

// Redaction of a capture (capture --redact): a capture is meant for tickets, and holds the
// host's socket addresses (headroom/sockets.json), its kernel log (dev/kmsg: martian
// sources, iptables LOG lines with MACs and addresses, "Comm:" of the faulting task), its
// host name and its interface names. Each is replaced by a pseudonym that is the same
// everywhere in the archive, so the joins the readers make still hold: eth0 is if1 in
// proc/net/dev, proc/interrupts, sys/class/net/if1/, headroom/ethtool/if1.json and the
// kernel log alike; an address is the same pseudonym in every socket and log line.
//
// Kept: loopback and unspecified addresses (they identify nothing and the socket rules
// tell loopback from the network by them), "lo", port numbers, kernel threads' names
// (kswapd0, ksoftirqd/1: rules read them), the kernel release (a 4-part release such as
// 2.6.32.59 looks like an IPv4 address and is not one).

// RedactOptions says what else to replace besides what the archive itself names.
type RedactOptions struct {
	// Users are user names to replace (the host's /etc/passwd accounts).
	Users []string
}

// Redaction is what Redact replaced: the pseudonym of each original, by kind.
type Redaction struct {
	Addresses, Hosts, Interfaces, Users, Commands map[string]string
}

var (
	ipv4RE = lazyre.New(`\b\d{1,3}(?:\.\d{1,3}){3}\b`)
	// An IPv6 candidate; netip decides. Times (02:21:22) and MACs do not parse.
	ipv6RE = lazyre.New(`(?i)\b(?:[0-9a-f]{1,4}:|:)(?::?[0-9a-f]{0,4}){1,7}(?::\d{1,3}(?:\.\d{1,3}){3})?`)
	macRE  = lazyre.New(`(?i)\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b`)
	// Task names in kernel log lines: "Comm: nginx", "nginx invoked oom-killer",
	// "Killed process 123 (nginx)", "nginx: page allocation failure".
	commRE = []*lazyre.Regexp{
		lazyre.New(`(Comm: )(\S+)`),
		lazyre.New(`(\] |^|: )([^\s:\]]+)( invoked oom-killer)`),
		lazyre.New(`([Kk]illed process \d+ \()([^)]+)(\))`),
		lazyre.New(`(\] |^|;)([^\s:;\]]+)(: page allocation failure)`),
	}
	// Kernel threads keep their names: rules and readers recognise them.
	kthreadRE = lazyre.New(`^(?:kswapd\d*|ksoftirqd/\d+|kworker/.*|kcompactd\d*|swapper(?:/\d+)?|migration/\d+|irq/.*|rcu_.*|kthreadd|khugepaged|oom_reaper)$`)
)

// Redact replaces in a (file names, contents and comment) the host's addresses, host
// name, interface names, user names and the names of tasks in the kernel log.
func Redact(a *txtar.Archive, opt RedactOptions) Redaction {
	r := Redaction{Addresses: map[string]string{}, Hosts: map[string]string{}, Interfaces: map[string]string{},
		Users: map[string]string{}, Commands: map[string]string{}}
	release := ""
	for _, f := range a.Files {
		switch f.Name {
		case "proc/sys/kernel/hostname":
			if h := strings.TrimSpace(string(f.Data)); h != "" && h != "localhost" {
				r.Hosts[h] = "host1"
				if short, _, ok := strings.Cut(h, "."); ok && short != "" {
					r.Hosts[short] = "host1"
				}
			}
		case "proc/sys/kernel/osrelease":
			release = strings.TrimSpace(string(f.Data))
		}
		if name, ok := interfaceOf(f.Name); ok && name != "lo" {
			if _, seen := r.Interfaces[name]; !seen {
				r.Interfaces[name] = ""
			}
		}
	}
	// Pseudonyms in name order, so that two captures of one host agree.
	ifs := sortedNames(r.Interfaces)
	for i, n := range ifs {
		r.Interfaces[n] = "if" + strconv.Itoa(i+1)
	}
	for i, u := range dedupSorted(opt.Users) {
		if u != "" && u != "root" {
			r.Users[u] = "user" + strconv.Itoa(i+1)
		}
	}
	// Names are replaced as whole words, and only where they occur: a short host name
	// ("vm") or interface name is also a word of file names and sysctl keys
	// (proc/sys/vm/...), which must stay as they are.
	all := map[string]string{}
	for _, m := range []map[string]string{r.Interfaces, r.Users, r.Hosts} {
		for k, v := range m {
			all[k] = v
		}
	}
	allRE, ifRE := wordsRE(all), wordsRE(r.Interfaces)
	replace := func(re *regexp.Regexp, words map[string]string, s string) string {
		if re == nil {
			return s
		}
		return re.ReplaceAllStringFunc(s, func(m string) string { return words[m] })
	}
	for i := range a.Files {
		f := &a.Files[i]
		if name, ok := interfaceOf(f.Name); ok && r.Interfaces[name] != "" {
			f.Name = strings.Replace(f.Name, name, r.Interfaces[name], 1)
		}
		if f.Name == "proc/sys/kernel/osrelease" {
			continue
		}
		s := string(f.Data)
		switch {
		case f.Name == "dev/kmsg":
			s = replace(allRE, all, r.commands(s))
		case f.Name == "proc/sys/kernel/hostname":
			s = replace(allRE, all, s)
		case f.Name == "proc/net/dev" || f.Name == "proc/interrupts" || f.Name == "headroom/sockets.json" ||
			strings.HasPrefix(f.Name, "headroom/ethtool/") || strings.HasPrefix(f.Name, "sys/class/net/"):
			s = replace(ifRE, r.Interfaces, s)
		}
		f.Data = []byte(r.addresses(s, release))
	}
	a.Comment = []byte(replace(allRE, all, r.addresses(string(a.Comment), release)))
	return r
}

// interfaceOf is the interface a capture file is about: sys/class/net/NAME/...,
// headroom/ethtool/NAME.json.
func interfaceOf(name string) (string, bool) {
	if rest, ok := strings.CutPrefix(name, "sys/class/net/"); ok {
		n, _, ok := strings.Cut(rest, "/")
		return n, ok && n != ""
	}
	if rest, ok := strings.CutPrefix(name, "headroom/ethtool/"); ok {
		n, ok := strings.CutSuffix(rest, ".json")
		return n, ok && n != ""
	}
	return "", false
}

func (r *Redaction) addresses(s, release string) string {
	s = macRE.ReplaceAllStringFunc(s, func(m string) string {
		k := strings.ToLower(m)
		if k == "00:00:00:00:00:00" || k == "ff:ff:ff:ff:ff:ff" {
			return m
		}
		if p, ok := r.Addresses[k]; ok {
			return p
		}
		n := len(r.Addresses) + 1
		p := fmt.Sprintf("02:00:00:%02x:%02x:%02x", n>>16&0xff, n>>8&0xff, n&0xff)
		r.Addresses[k] = p
		return p
	})
	s = ipv6RE.ReplaceAllStringFunc(s, func(m string) string {
		ip, err := netip.ParseAddr(m)
		if err != nil || !ip.Is6() || ip.IsLoopback() || ip.IsUnspecified() || !strings.Contains(m, "::") && strings.Count(m, ":") < 7 {
			return m
		}
		return r.pseudonym(ip)
	})
	return ipv4RE.ReplaceAllStringFunc(s, func(m string) string {
		ip, err := netip.ParseAddr(m)
		if err != nil || ip.IsLoopback() || ip.IsUnspecified() || ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}) ||
			release != "" && strings.Contains(release, m) {
			return m
		}
		return r.pseudonym(ip)
	})
}

// pseudonym: IPv4 addresses become 240.0.0.0/4 (reserved, never a host's), IPv6 ones
// 2001:db8::/32 (documentation, RFC 3849), numbered in order of appearance.
func (r *Redaction) pseudonym(ip netip.Addr) string {
	k := ip.String()
	if p, ok := r.Addresses[k]; ok {
		return p
	}
	n := len(r.Addresses) + 1
	var p string
	if ip.Is4() {
		p = netip.AddrFrom4([4]byte{240, byte(n >> 16), byte(n >> 8), byte(n)}).String()
	} else {
		p = fmt.Sprintf("2001:db8::%x", n)
	}
	r.Addresses[k] = p
	return p
}

func (r *Redaction) commands(s string) string {
	for _, re := range commRE {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			sub := re.FindStringSubmatch(m)
			name := sub[2]
			if kthreadRE.MatchString(name) {
				return m
			}
			p, ok := r.Commands[name]
			if !ok {
				p = "task" + strconv.Itoa(len(r.Commands)+1)
				r.Commands[name] = p
			}
			return strings.Replace(m, sub[1]+name, sub[1]+p, 1)
		})
	}
	return s
}

func wordsRE(words map[string]string) *regexp.Regexp {
	if len(words) == 0 {
		return nil
	}
	keys := sortedNames(words)
	sort.SliceStable(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = regexp.QuoteMeta(k)
	}
	// Whole words: not inside a longer name (eth0 in eth01, alice in malice).
	return regexp.MustCompile(`(?:^|\b)(?:` + strings.Join(q, "|") + `)(?:\b|$)`)
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func dedupSorted(in []string) []string {
	m := map[string]string{}
	for _, s := range in {
		m[s] = ""
	}
	return sortedNames(m)
}

// PasswdUsers lists the accounts of a passwd file that are people or services of the
// site (uid 1000 and up, not nobody), the names a redacted capture replaces.
func PasswdUsers(passwd []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(passwd))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ":")
		if len(f) < 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		uid, err := strconv.Atoi(f[2])
		if err != nil || uid < 1000 || uid == 65534 {
			continue
		}
		out = append(out, f[0])
	}
	return out
}
