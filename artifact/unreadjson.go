package artifact

import "strings"

// A JSON object of memory or network statistics that no reader takes (issue 29 item 4,
// corpus 1039: a monitor's dump of two Proxmox nodes, "total": 32850432000, "used": ...,
// "free": ..., "cached": 0). One "key": value pair a line holds too few numbers for
// unreadEvidence, and a paste of such an object exited 3 as if it held no evidence. A pair
// whose key names memory or traffic in bytes or packets is listed as unread; the other
// number pairs right below it ("usage": 17.3) join its entry, and a lone number pair of
// another key ("port": 8080) stays prose.

const jsonStatWhy = "a JSON object of memory or network statistics (total, used, free, cached, rx/tx bytes) headroom does not read"

// jsonStatKeys: the keys of such objects, lower case without '_' and '-'.
var jsonStatKeys = map[string]bool{"total": true, "used": true, "free": true, "available": true, "avail": true,
	"buffers": true, "cached": true, "shared": true, "slab": true, "swaptotal": true, "swapused": true, "swapfree": true,
	"memtotal": true, "memused": true, "memfree": true, "memavailable": true, "rxbytes": true, "txbytes": true,
	"rxpackets": true, "txpackets": true, "rxdropped": true, "txdropped": true, "rxerrors": true, "txerrors": true,
	"bytesrecv": true, "bytessent": true, "totalbytes": true, "usedbytes": true, "freebytes": true}

// jsonNumberPair parses a JSON object's member line `"key": number` (a comma after it or
// not) and returns the key normalised for jsonStatKeys.
func jsonNumberPair(t string) (key string, ok bool) {
	s := strings.TrimSpace(t)
	if len(s) < 5 || s[0] != '"' {
		return "", false
	}
	k := strings.IndexByte(s[1:], '"')
	if k <= 0 || k > 64 {
		return "", false
	}
	key, rest := s[1:1+k], strings.TrimSpace(s[2+k:])
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return "", false
	}
	if v := strings.TrimSpace(rest); !isNumberToken(v) || strings.ContainsAny(v, "kKMGB%()[];") {
		return "", false // a JSON number: no unit, no brackets (isNumberToken takes both)
	}
	n := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(key))
	return n, true
}

// jsonStatLine reports whether line i is a member of a JSON statistics object: a pair of
// jsonStatKeys, or any number pair right below a line listed as one.
func (d *doc) jsonStatLine(i int) bool {
	key, ok := jsonNumberPair(d.ls[i].Text)
	if !ok {
		return false
	}
	if jsonStatKeys[key] {
		return true
	}
	n := len(d.tl.Unparsed)
	return n > 0 && d.tl.Unparsed[n-1].Why == jsonStatWhy && d.tl.Unparsed[n-1].LastLine == d.ls[i].No-1
}
