// Command recgen writes a synthetic recording for measuring doctor --from and report on long
// recordings (docs/performance.md): go run ./internal/recgen/cmd -n 86400 -o day.jsonl.gz
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"headroom/internal/recgen"
)

func main() {
	var opt recgen.Options
	out := flag.String("o", "", "archive to write (.jsonl.gz)")
	flag.IntVar(&opt.Samples, "n", 86400, "samples")
	flag.DurationVar(&opt.Interval, "interval", time.Second, "time between samples")
	flag.IntVar(&opt.Interfaces, "ifaces", 0, "veths to add to every sample")
	flag.IntVar(&opt.Markers, "markers", 3, "phase markers, spread evenly")
	flag.Uint64Var(&opt.Seed, "seed", 1, "seed of the jitter")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "recgen: -o is required")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err == nil {
		err = recgen.Generate(f, opt)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "recgen:", err)
		os.Exit(1)
	}
}
