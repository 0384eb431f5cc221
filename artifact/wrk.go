package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// wrk's summary (wg/wrk src/wrk.c main and print_stats_header/print_stats): a load
// generator's view of a server, kept as an artifact with its values (no rule judges a
// benchmark). "Socket errors: connect N" counts connect() failures on the client (a full
// listen queue answered with RST, no local port left, a refused connection); "read" and
// "timeout" are the server's slow or closed replies.
//
//	Running 30s test @ http://127.0.0.1:8080/
//	  12 threads and 300 connections
//	  Thread Stats   Avg      Stdev     Max   +/- Stdev
//	    Latency    91.56ms   31.46ms 342.61ms   70.65%
//	    Req/Sec   223.39     40.76   464.00     80.14%
//	  78773 requests in 30.07s, 279.31MB read
//	  Socket errors: connect 252, read 0, write 0, timeout 0
//	  Non-2xx or 3xx responses: 517458
//	Requests/sec:   2619.58
//	Transfer/sec:      9.29MB
type WrkRun struct {
	Threads        int64    `json:"threads"`
	Connections    int64    `json:"connections"`
	LatencyAvgMs   *float64 `json:"latency_avg_ms,omitempty"`
	LatencyStdevMs *float64 `json:"latency_stdev_ms,omitempty"`
	LatencyMaxMs   *float64 `json:"latency_max_ms,omitempty"`
	Requests       *int64   `json:"requests,omitempty"`
	DurationSec    *float64 `json:"duration_sec,omitempty"`
	// SocketErrors: connect, read, write, timeout as wrk prints them.
	SocketErrors   map[string]int64 `json:"socket_errors,omitempty"`
	Non2xx3xx      *int64           `json:"non_2xx_3xx,omitempty"`
	RequestsPerSec *float64         `json:"requests_per_sec,omitempty"`
}

var (
	reWrkThreads  = lazyre.New(`^(\d+) threads and (\d+) connections$`)
	reWrkRequests = lazyre.New(`^(\d+) requests in (\d+(?:\.\d+)?)(m|s|ms)\b`)
)

// wrkMs converts wrk's time with its unit ("91.56ms", "1.02s", "850.00us", "1.50m") to ms.
func wrkMs(s string) (float64, bool) {
	for _, u := range []struct {
		suffix string
		scale  float64
	}{{"us", 0.001}, {"ms", 1}, {"s", 1000}, {"m", 60000}} {
		if strings.HasSuffix(s, u.suffix) {
			v, err := strconv.ParseFloat(strings.TrimSuffix(s, u.suffix), 64)
			return v * u.scale, err == nil
		}
	}
	return 0, false
}

// tryWrk reads wrk's summary from its "N threads and M connections" line ("Running ...
// test @ URL" above it stays prose: it holds no figure of the run).
func (d *doc) tryWrk(i int) int {
	m := reWrkThreads.FindStringSubmatch(strings.TrimSpace(d.ls[i].Text))
	if m == nil {
		return 0
	}
	r := &WrkRun{}
	r.Threads, _ = atoi(m[1])
	r.Connections, _ = atoi(m[2])
	k := i + 1
	for ; k < len(d.ls); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		fs := fields(t)
		switch {
		case strings.HasPrefix(t, "Thread Stats"), strings.HasPrefix(t, "Req/Sec"), t == "Latency Distribution",
			strings.HasPrefix(t, "Transfer/sec:"):
		case len(fs) == 2 && strings.HasSuffix(fs[0], "%") && hasDigit(fs[1]):
			// a --latency percentile row: "50%  12.3ms"
		case strings.HasPrefix(t, "Latency") && len(fs) >= 4:
			if v, ok := wrkMs(fs[1]); ok {
				r.LatencyAvgMs = &v
			}
			if v, ok := wrkMs(fs[2]); ok {
				r.LatencyStdevMs = &v
			}
			if v, ok := wrkMs(fs[3]); ok {
				r.LatencyMaxMs = &v
			}
		case reWrkRequests.MatchString(t):
			rm := reWrkRequests.FindStringSubmatch(t)
			n, _ := atoi(rm[1])
			r.Requests = &n
			if v, ok := wrkMs(rm[2] + rm[3]); ok {
				sec := v / 1000
				r.DurationSec = &sec
			}
		case strings.HasPrefix(t, "Socket errors:"):
			r.SocketErrors = map[string]int64{}
			for _, part := range strings.Split(strings.TrimPrefix(t, "Socket errors:"), ",") {
				if pf := fields(part); len(pf) == 2 {
					if v, ok := atoi(pf[1]); ok {
						r.SocketErrors[pf[0]] = v
					}
				}
			}
		case strings.HasPrefix(t, "Non-2xx or 3xx responses:"):
			if v, ok := atoi(strings.TrimSpace(strings.TrimPrefix(t, "Non-2xx or 3xx responses:"))); ok {
				r.Non2xx3xx = &v
			}
		case strings.HasPrefix(t, "Requests/sec:"):
			if v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(t, "Requests/sec:")), 64); err == nil {
				r.RequestsPerSec = &v
			}
		default:
			goto done
		}
	}
done:
	if k == i+1 {
		return 0 // the line alone: a sentence's words, no summary under it
	}
	for j := i; j < k; j++ {
		d.used[j] = true
	}
	d.addArtifact(KindWrk, d.ls[i].No, d.ls[k-1].No, r)
	return k - i
}
