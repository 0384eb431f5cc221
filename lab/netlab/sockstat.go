package netlab

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// parseSockstatTCPMem finds "mem N" on the "TCP:" line of /proc/net/sockstat:
//
//	TCP: inuse 5 orphan 0 tw 0 alloc 7 mem 2
//
// ok is false when there is no TCP line or it has no mem field (absent is not zero). The
// line's layout has been "TCP: inuse %d orphan %d tw %d alloc %d mem %ld" since 2.6; mem
// counts pages (net/ipv4/proc.c: sockstat_seq_show).
func parseSockstatTCPMem(b []byte) (pages int64, ok bool, err error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	line := 0
	for sc.Scan() {
		line++
		rest, found := strings.CutPrefix(sc.Text(), "TCP:")
		if !found {
			continue
		}
		f := strings.Fields(rest)
		for i := 0; i+1 < len(f); i += 2 {
			if f[i] != "mem" {
				continue
			}
			v, err := strconv.ParseInt(f[i+1], 10, 64)
			if err != nil {
				return 0, false, fmt.Errorf("line %d: TCP mem %q: %w", line, f[i+1], err)
			}
			return v, true, nil
		}
		return 0, false, nil
	}
	return 0, false, sc.Err()
}
