package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix43c: inxi's swap rows and RAM line (corpus 3663), a low-memory killer's kills counted in
// prose (corpus 3674), memory paged out, stated (corpus 3676).

// inxiMem is the swap and RAM a text's samples carry, in kB (-1 when none).
func inxiMem(t *testing.T, text string) (swapTotal, swapUsed, memTotal, memAvail int64) {
	t.Helper()
	swapTotal, swapUsed, memTotal, memAvail = -1, -1, -1, -1
	tl := ParseString(text, "p", Options{})
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if v, ok := s.Mem("SwapTotal"); ok {
			swapTotal = v
		}
		if v, ok := s.Mem("SwapUsed"); ok {
			swapUsed = v
		}
		if v, ok := s.Mem("MemTotal"); ok {
			memTotal = v
		}
		if v, ok := s.Mem("MemAvailable"); ok {
			memAvail = v
		}
	}
	return
}

func TestFix43cInxiSwapAndMemory(t *testing.T) {
	for _, c := range []struct {
		text                   string
		swapT, swapU, mem, avl int64
	}{
		// corpus 3663 (appwrite#2950): inxi 3.0's Swap: item on the section's line, the short RAM line
		{"```\nSwap:      ID-1: swap-1 type: partition size: 512 MiB used: 512 MiB (100.0%) dev: /dev/sdb \n\nMem: 939.2/976.4 MiB (96.2%) \n```\n",
			524288, 524288, 999834, 999834 - 961741},
		// inxi 3.3's Swap: section with its rows indented under it, two devices summed, a wrapped dev:
		{"Swap:\n  ID-1: swap-1 type: partition size: 2 GiB used: 1.5 GiB (75.0%) priority: -2\n    dev: /dev/sda2\n  ID-2: swap-2 type: file size: 1024 MiB used: 0 KiB (0.0%) priority: -3 file: /swapfile\n",
			3 * 1024 * 1024, 1572864, -1, -1},
		// inxi 2.x -p: a swap partition among the partitions (fs: swap), GB as inxi 2 printed it
		{"Partition: ID-1: / size: 20G used: 9.3G (49%) fs: ext4 dev: /dev/sda1\n           ID-2: swap-1 size: 2.00GB used: 1.98GB (99%) fs: swap dev: /dev/sda5\n",
			2097152, 2076180, -1, -1},
		// inxi 3.1's Info line and 3.3's Memory section
		{"Info:      Processes: 254 Uptime: 2h 17m Memory: 15.51 GiB used: 3.18 GiB (20.5%) Init: systemd\n", -1, -1, 16263414, 12928942},
		{"Memory:\n  System RAM: total: 16 GiB available: 15.54 GiB used: 2.7 GiB (17.4%)\n", -1, -1, -1, -1}, // the total's line is under a bare "Memory:" (not read)
		{"Memory:    RAM: total: 16 GiB available: 15.54 GiB used: 2.7 GiB (16.9%)\n", -1, -1, 16777216, 16777216 - 2831155},
		// counter-cases: a sentence with the words, a percentage that is not used/size, a disk's
		// partition row, neofetch's line (another program, no inxi form), advice
		{"The swap size: 512 MiB used: 512 MiB (100.0%) is what inxi would show if it filled.\n", -1, -1, -1, -1},
		{"Swap:      ID-1: swap-1 type: partition size: 512 MiB used: 12 MiB (100.0%) dev: /dev/sdb\n", -1, -1, -1, -1},
		{"Partition: ID-1: / size: 24.04 GiB used: 9.36 GiB (38.9%) fs: ext4 dev: /dev/sda\n", -1, -1, -1, -1},
		{"Memory: 939MiB / 976MiB\n", -1, -1, -1, -1},
	} {
		st, su, mt, ma := inxiMem(t, c.text)
		if st != c.swapT || su != c.swapU || mt != c.mem || ma != c.avl {
			t.Errorf("%q: swap %d/%d mem %d avail %d, want %d/%d %d %d", c.text, su, st, mt, ma, c.swapU, c.swapT, c.mem, c.avl)
		}
	}
}

// statedLowMemKillsIn is the low-memory killer kills ParseString reads from text.
func statedLowMemKillsIn(text string) []model.RuntimeOOM {
	var out []model.RuntimeOOM
	for _, o := range ParseString(text, "p", Options{}).RuntimeOOMs {
		if o.Scope == model.OOMScopeLowMemKiller {
			out = append(out, o)
		}
	}
	return out
}

func TestFix43cLowMemKillerCountedInProse(t *testing.T) {
	for _, c := range []struct {
		text   string
		killer string
		count  int
	}{
		// corpus 3674 (windmill#10442)
		{"- Result: 73 of 121 earlyoom kills were production Windmill jobs (`bun`, `unshare` and `tini` wrappers), while the actual memory hogs survived.\n", "earlyoom", 121},
		{"Last week earlyoom killed 40 processes on our build server.\n", "earlyoom", 40},
		{"Since the upgrade 12 services were killed by systemd-oomd.\n", "systemd-oomd", 12},
		// counter-cases: a description of the daemon, a question, a condition, a negation, quoted
		{"earlyoom kills the largest process when available memory drops below 10%.\n", "", 0},
		{"Did earlyoom kill 3 processes here?\n", "", 0},
		{"If earlyoom killed 5 processes, the log would show them.\n", "", 0},
		{"No earlyoom kills so far; the memory hogs survive.\n", "", 0},
		{"Has earlyoom killed 5 processes on your host too?\n", "", 0},
		{"The kernel's OOM killer killed 3 processes.\n", "", 0},
	} {
		ks := statedLowMemKillsIn(c.text)
		if c.count == 0 {
			if len(ks) != 0 {
				t.Errorf("%q: read %+v", c.text, ks)
			}
			continue
		}
		if len(ks) != 1 || ks[0].Count != c.count || ks[0].Reporter != c.killer+" (counted by the author)" {
			t.Errorf("%q: %+v, want %s ×%d", c.text, ks, c.killer, c.count)
		}
	}
}

func TestFix43cMemoryPagedOutStated(t *testing.T) {
	swap := model.RateStatedSwapping
	for _, c := range []struct {
		text string
		want float64
	}{
		// corpus 3676 (DeskcommCRM#1173), Portuguese
		{"- `tsc --noEmit` que não conclui: medido em 1h10 de relógio para 5 minutos de CPU, com a memória do processo paginada para fora.\n", 1},
		{"Compiling took an hour with the process's memory swapped out.\n", 1},
		{"Half of the heap was swapped out during the build.\n", 1},
		{"El proceso tardó una hora con la memoria paginada a disco.\n", 1},
		// counter-cases: a mechanism, a condition, a question, a negation, advice
		{"Linux pages memory out when RAM is short.\n", 0},
		{"SwapCached: Memory that once was swapped out, is swapped back in but still also is in the swap file.\n", 0}, // proc(5)
		{"If the heap was swapped out, the GC pauses grow.\n", 0},
		{"Was the memory paged out during the build?\n", 0},
		{"Nothing was swapped out: the VM had 8 GB free.\n", 0},
		{"A memória do processo não foi paginada para fora.\n", 0},
		{"Set vm.swappiness=10 so less memory is being swapped out.\n", 0},
	} {
		if got := statedRate(t, c.text, swap); got != c.want {
			t.Errorf("%q: %s %v, want %v", c.text, swap, got, c.want)
		}
	}
}

func TestFix43cMemoryRequirementNotHostSize(t *testing.T) {
	for _, c := range []struct {
		text string
		want int64
	}{
		{"@Shiba-Kar, that could be the problem. Appwrite requires at least 2GB of memory.\n", 0},
		{"The installer needs a minimum of 4 GB RAM.\n", 0},
		{"Recommended: 8 GB RAM for the full stack.\n", 0},
		// the author's own machine
		{"My server has 2GB of memory.\n", 2 * 1024 * 1024},
		{"I have at least 8 GB RAM on this box.\n", 8 * 1024 * 1024},
	} {
		if got := ParseString(c.text, "p", Options{}).Host.MemTotalKB; got != c.want {
			t.Errorf("%q: host memory %d kB, want %d", c.text, got, c.want)
		}
	}
}

func TestFix43cDockerStatsPrinted(t *testing.T) {
	// corpus 3666 (hasura#9592)
	text := "CONTAINER ID   NAME                           CPU %     MEM USAGE / LIMIT    MEM %     NET I/O           BLOCK I/O         PIDS\n" +
		"d9a95e0fdb10   ghostwriter_graphql_engine_1   0.33%     263.2MiB / 1.93GiB   13.32%    3.73GB / 4.57GB   40.6MB / 8.19kB   10\n"
	r, ok := dockerStatsRow(strings.Split(text, "\n")[1])
	if !ok || r.Printed == nil || *r.Printed != (ContainerMemPrinted{Usage: 263.2, UsageUnit: "MiB", Limit: 1.93, LimitUnit: "GiB"}) || r.UsageBytes != 275985203 {
		t.Fatalf("%+v %v", r, ok)
	}
	if r, ok := kubectlTopRow("web-7d4b9c   12m   263Mi"); !ok || r.Printed != nil {
		t.Errorf("kubectl top: %+v %v", r, ok)
	}
}
