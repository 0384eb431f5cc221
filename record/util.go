package record

import (
	"strings"

	"headroom/units"
)

// ParseSize reads --max-size: "0" (never rotate) or a size as every size flag reads it
// (units.ParseSize, the one size parser: binary K/M/G/T and KiB…, decimal kB/MB/GB/TB, a
// lower-case b refused as bits). It had a parser of its own that read "512b" as bytes and
// lacked T and TiB.
func ParseSize(s string) (int64, error) {
	if strings.TrimSpace(s) == "0" {
		return 0, nil
	}
	return units.ParseSize(s)
}
