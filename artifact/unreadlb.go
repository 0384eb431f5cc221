package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Load balancers' own output that no reader takes (issue 29, round 13's g67, fix18b).
//
//   - IPVS's connection table as ipvsadm lists it (`ipvsadm -L -c -n`, ipvsadm.c
//     print_conn: "IPVS connection entries", "pro expire state source virtual
//     destination", then "TCP 133:35 ESTABLISHED 10.142.81.39:49715 10.40.25.43:18000
//     10.40.25.16:18000": protocol, mm:ss to expiry, the IPVS state, client, virtual
//     service and real server; corpus 1626). The rows are the director's own table
//     (net/netfilter/ipvs/ip_vs_conn.c), not nf_conntrack's, and carry no limit, drop or
//     memory figure. Its header is words, so a run under the command ended there and the
//     rows were prose: each row is the tool's form (toolFormLine) and is listed as read.
//   - DPVS's (the DPDK load balancer's) own allocation message, "IPVS: dp_vs_conn_alloc:
//     no memory for connection" (RTE_LOG(ERR, IPVS, "%s: no memory for connection\n",
//     __func__) after rte_mempool_get failed on its connection pool; corpus 1635). DPDK's
//     logger prefixes the log type "IPVS: " as the kernel's IPVS does, but the kernel's
//     messages name the function with "()" ("IPVS: ip_vs_conn_new(): no memory",
//     unreadnettable.go): a bare name then ": no memory" is the user-space program's,
//     whose pool is sized in its own configuration (hugepages), not kernel memory.
//
// Gates: ipvsConnRow checks the first bytes for a protocol name before its regexp;
// userLBPoolLine asks one strings.Index for "no memory".

const ipvsConnWhy = "IPVS's connection table as ipvsadm lists it (`ipvsadm -L -c -n`: protocol, time to expiry, state, client, virtual service and real server per entry): the director's own table (net/netfilter/ipvs), not nf_conntrack's, with no limit, drop or memory figure; headroom has no reader for it"

const userLBPoolWhy = "a user-space load balancer's own allocation failure (DPVS on DPDK: \"IPVS: dp_vs_conn_alloc: no memory for connection\" after rte_mempool_get failed on its connection pool): the program's pool, sized in its own configuration (conn_pool_size, hugepages), was exhausted, so new connections were refused; not kernel memory, the kernel's IPVS or nf_conntrack; headroom has no rule for it"

var reIPVSConnRow = lazyre.New(`^\s*(?:TCP|UDP|SCTP|IP)\s+\d+:\d\d\s+[A-Z][A-Z_]*\s+\S+:\d+\s+\S+:\d+\s+\S+:\d+(?:\s+\S+){0,2}\s*$`)

// ipvsConnRow: a row of `ipvsadm -L -c`.
func ipvsConnRow(t string) bool {
	s := strings.TrimLeft(t, " \t")
	if len(s) < 20 || len(s) > 400 {
		return false
	}
	if !strings.HasPrefix(s, "TCP ") && !strings.HasPrefix(s, "UDP ") && !strings.HasPrefix(s, "SCTP ") && !strings.HasPrefix(s, "IP ") {
		return false
	}
	return reIPVSConnRow.MatchString(s)
}

// userLBPoolLine says why prose line t is a user-space load balancer's "IPVS: NAME: no
// memory ..." message.
func userLBPoolLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	k := strings.Index(t, ": no memory")
	if k <= 0 {
		return "", false
	}
	j := strings.LastIndex(t[:k], "IPVS: ")
	if j < 0 {
		return "", false
	}
	name := t[j+len("IPVS: ") : k]
	if name == "" || strings.ContainsAny(name, " :()") {
		return "", false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "", false
		}
	}
	return userLBPoolWhy, true
}
