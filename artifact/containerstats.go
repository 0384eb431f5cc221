package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// Container and pod memory tables (issue 29: containers): `docker stats --no-stream` and
// `kubectl top node|pod`, pasted into issues about a container or node running out of
// memory. Each row's usage, limit and share are kept as an artifact; neither tool says
// whether the kernel reclaimed or killed, so no rule judges them alone.
//
//	CONTAINER ID   NAME   CPU %   MEM USAGE / LIMIT   MEM %    NET I/O   BLOCK I/O   PIDS
//	3f2a1b9c8d7e   web    0.50%   1.95GiB / 2GiB      97.51%   ...
//
//	NAME     CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%
//	node-1   250m         12%    7123Mi          92%

// ContainerMemRow is one row of either table.
type ContainerMemRow struct {
	Name       string   `json:"name"`
	UsageBytes int64    `json:"usage_bytes"`
	LimitBytes int64    `json:"limit_bytes,omitempty"` // docker stats: the cgroup's limit (the host's memory without one)
	Percent    *float64 `json:"percent,omitempty"`
	// Printed is docker stats' MEM USAGE / LIMIT as the operator read it ("263.2MiB /
	// 1.93GiB"), before the conversion to bytes rounded it (fix43c); nil for kubectl top.
	Printed *ContainerMemPrinted `json:"printed,omitempty"`
}

// ContainerMemPrinted is a docker stats row's usage and limit with their units, as printed.
type ContainerMemPrinted struct {
	Usage     float64 `json:"usage"`
	UsageUnit string  `json:"usage_unit"`
	Limit     float64 `json:"limit"`
	LimitUnit string  `json:"limit_unit"`
}

// ContainerMemTable is a docker stats or kubectl top table.
type ContainerMemTable struct {
	Tool string            `json:"tool"` // "docker stats", "kubectl top"
	Rows []ContainerMemRow `json:"rows"`
}

var (
	reDockerStatsRow = lazyre.New(`^(\S+)\s+(?:(\S+)\s+)?(?:[\d.]+|--)%\s+([\d.]+)\s*([KMGTP]i?B|[kMGTP]B|B)\s*/\s*([\d.]+)\s*([KMGTP]i?B|[kMGTP]B|B)\s+([\d.]+|--)%`)
	reKubectlTopRow  = lazyre.New(`^(?:(\S+)\s+)?(\S+)\s+(\d+m?)\s+(?:(\d+)%\s+)?(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?\s*(?:(\d+)%)?\s*$`)
)

// dockerSize reads docker's sizes: binary with "iB" (units.BytesSize), decimal with "B"
// (units.HumanSize, the NET and BLOCK columns; older versions for memory too).
func dockerSize(num, unit string) (int64, bool) {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false
	}
	mult := map[string]float64{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
		"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}[unit]
	if mult == 0 {
		return 0, false
	}
	return int64(v * mult), true
}

func (d *doc) tryDockerStats(i int) int {
	return d.tryContainerTable(i, "MEM USAGE / LIMIT", "docker stats", dockerStatsRow)
}

func (d *doc) tryKubectlTop(i int) int {
	return d.tryContainerTable(i, "MEMORY(bytes)", "kubectl top", kubectlTopRow)
}

// tryContainerTable reads the rows under a header that holds marker.
func (d *doc) tryContainerTable(i int, marker, tool string, row func(string) (ContainerMemRow, bool)) int {
	if !strings.Contains(d.ls[i].Text, marker) {
		return 0
	}
	tb := ContainerMemTable{Tool: tool}
	k := i + 1
	for ; k < len(d.ls); k++ {
		r, ok := row(strings.TrimSpace(d.ls[k].Text))
		if !ok {
			break
		}
		tb.Rows = append(tb.Rows, r)
	}
	if len(tb.Rows) == 0 {
		return 0
	}
	d.addArtifact(KindContainerMem, d.ls[i].No, d.ls[k-1].No, tb)
	return k - i
}

// fix41a (corpus 3495): `kubectl top pods -A | grep multus` pasted with its prompt: grep
// (or --no-headers) dropped kubectl's header (NAMESPACE NAME CPU(cores) MEMORY(bytes)), so
// the rows follow the command line itself. The command names the tool and its columns as
// the header would; rows are read under it with kubectlTopRow. A command in prose ("I ran
// kubectl top pods | grep x and saw ..."), without a prompt, and a command whose next line
// is no row read nothing.
var reKubectlTopFiltered = lazyre.New(`(?:^|[$#%>]\s)\s*kubectl\s+top\s+(?:pods?|nodes?|po|no)\b(?:[^|\n]*\|\s*e?grep\b|[^|\n]*--no-headers\b)`)

// isKubectlTopFiltered: line t is a shell command running kubectl top without its header.
func isKubectlTopFiltered(_, t string) bool {
	return strings.Contains(t, "kubectl top") && reKubectlTopFiltered.MatchString(strings.TrimSpace(t))
}

func (d *doc) tryKubectlTopFiltered(i int) int {
	if !isKubectlTopFiltered("", d.ls[i].Text) {
		return 0
	}
	return d.tryContainerTable(i, "kubectl top", "kubectl top", kubectlTopRow)
}

// fix47b (corpus 3966): a docker stats row pasted without its header, as an author quotes
// the one container that matters: `docker stats --format "table {{.Name}}\t{{.CPUPerc}}\t
// {{.MemUsage}}"` (or the default table cut to its row) prints NAME, CPU % and MEM USAGE /
// LIMIT, the usage and limit in docker's binary units (units.BytesSize: "6.02GiB /
// 7.75GiB"), columns apart by at least two spaces:
//
//	agenticos_prefect_runner   1040.27%   6.02GiB / 7.75GiB
//
// Only the whole line in that shape is a row: a name (docker's container name characters),
// the CPU share, usage / limit in iB units, then optionally MEM % and the rest of the default
// row. A sentence ("the runner used 6.02GiB / 7.75GiB"), a kubectl top row (Mi, no limit) and
// free's or top's lines have no such shape. The LIMIT is the container's cgroup limit or,
// without one, the host's memory: the row says which figure docker printed, not which.
var reDockerStatsBareRow = lazyre.New(`^([A-Za-z0-9][A-Za-z0-9_.-]*)\s{2,}(?:([A-Za-z0-9][A-Za-z0-9_.-]*)\s{2,})?(?:[\d.]+|--)%\s{2,}([\d.]+)([KMGTP]iB|B)\s*/\s*([\d.]+)([KMGTP]iB|B)(?:\s{2,}([\d.]+|--)%(?:\s{2,}\S.*)?)?$`)

// isDockerStatsBareRow: line t is a docker stats row without its header (cheap tests first).
func isDockerStatsBareRow(_, t string) bool {
	return strings.Contains(t, "iB") && strings.Contains(t, "%") && reDockerStatsBareRow.MatchString(strings.TrimSpace(t))
}

func (d *doc) tryDockerStatsBare(i int) int {
	tb := ContainerMemTable{Tool: "docker stats"}
	k := i
	for ; k < len(d.ls); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if !isDockerStatsBareRow("", t) {
			break
		}
		r, ok := dockerStatsBareRow(t)
		if !ok {
			break
		}
		tb.Rows = append(tb.Rows, r)
	}
	if len(tb.Rows) == 0 || d.exampleLines[d.ls[i].No] {
		return 0
	}
	d.addArtifact(KindContainerMem, d.ls[i].No, d.ls[k-1].No, tb)
	return k - i
}

func dockerStatsBareRow(t string) (ContainerMemRow, bool) {
	return dockerStatsMatchRow(reDockerStatsBareRow.FindStringSubmatch(t))
}

func dockerStatsRow(t string) (ContainerMemRow, bool) {
	return dockerStatsMatchRow(reDockerStatsRow.FindStringSubmatch(t))
}

// dockerStatsMatchRow builds a row from reDockerStatsRow's or reDockerStatsBareRow's groups
// (the same in both: id or name, name, usage and unit, limit and unit, MEM %).
func dockerStatsMatchRow(m []string) (ContainerMemRow, bool) {
	if m == nil {
		return ContainerMemRow{}, false
	}
	use, ok1 := dockerSize(m[3], m[4])
	lim, ok2 := dockerSize(m[5], m[6])
	if !ok1 || !ok2 {
		return ContainerMemRow{}, false
	}
	r := ContainerMemRow{Name: m[1], UsageBytes: use, LimitBytes: lim}
	pu, _ := strconv.ParseFloat(m[3], 64)
	pl, _ := strconv.ParseFloat(m[5], 64)
	r.Printed = &ContainerMemPrinted{Usage: pu, UsageUnit: m[4], Limit: pl, LimitUnit: m[6]}
	if m[2] != "" {
		r.Name = m[2]
	}
	if p, err := strconv.ParseFloat(m[7], 64); err == nil {
		r.Percent = &p
	}
	return r, true
}

func kubectlTopRow(t string) (ContainerMemRow, bool) {
	m := reKubectlTopRow.FindStringSubmatch(t)
	if m == nil {
		return ContainerMemRow{}, false
	}
	b, ok := kubeQuantityBytes(m[5] + m[6])
	if !ok {
		return ContainerMemRow{}, false
	}
	r := ContainerMemRow{Name: m[2], UsageBytes: b}
	if m[1] != "" {
		r.Name = m[1] + "/" + m[2] // kubectl top pod -A: namespace, name
	}
	if m[7] != "" {
		p, _ := strconv.ParseFloat(m[7], 64)
		r.Percent = &p
	}
	return r, true
}
