// Package testkit holds the fixtures several packages' tests build the same way, so that a
// made-up sample means the same thing in each.
package testkit

import (
	"time"

	"headroom/kernel"
	"headroom/model"
)

// Counters builds ordered counters from name, value pairs: Counters("MemFree", 1024, ...).
func Counters(kv ...any) *kernel.Counters {
	var c kernel.Counters
	for i := 0; i+1 < len(kv); i += 2 {
		c.Set(kv[i].(string), int64(kv[i+1].(int)))
	}
	return &c
}

// SwapRampSample is sample i, a second apart from t0, of a made-up host: swap-out grows by
// 256 pages a second from sample 20 to 30 and stays flat otherwise; free memory falls by 100
// kB a sample; kswapd scans 10 pages a second.
func SwapRampSample(t0 time.Time, i int) model.Sample {
	out := 1000
	for k := 1; k <= i; k++ {
		if k > 20 && k <= 30 {
			out += 256
		}
	}
	return model.Sample{Time: t0.Add(time.Duration(i) * time.Second), Source: "/proc",
		MemInfo: Counters("MemTotal", 1<<20, "MemFree", 400000-i*100),
		VMStat:  Counters("pswpin", 5, "pswpout", out, "pgscan_kswapd", 10*i),
		Buddy:   []kernel.BuddyZone{{Node: 0, Zone: "Normal", Free: []int64{int64(100 + i), 50, 20, 5, 1, 0, 0, 0, 0, 0, 0}}},
	}
}
