package tune

import (
	"strings"
	"testing"

	"headroom/model"
	"headroom/plan"
)

// This machine's shape as source.ReadHost reads it: 24 GiB installed, MemTotal 24684084 kB.
var hereFacts = model.Host{Hostname: "vm", Kernel: "6.18.44-fc-v669", MemTotalKB: 24684084, Arch: "x86_64", WordBits: 64, PageSize: 4096, CPUs: 2}

func hereTarget() plan.TargetHost {
	return plan.TargetHost{MemoryBytes: 24684084 * 1024, MemoryFrom: plan.FactRead, Kernel: "6.18.44-fc-v669", KernelFrom: plan.FactRead,
		Arch: "x86_64", ArchFrom: plan.FactRead, WordBits: 64, PageSizeBytes: 4096, PageSizeFrom: plan.FactRead, CPUs: 2, CPUsFrom: plan.FactRead, ReadFrom: "vm"}
}

// Issue 27 item 3: a plan's target host is compared with this host, fact by fact, and
// every difference is named with where the plan's fact came from.
func TestPlanMismatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*plan.TargetHost)
		want []string // one line each; none = accepted
	}{
		{"this host", func(*plan.TargetHost) {}, nil},
		// A person gives the installed RAM; MemTotal is 2 % under it.
		{"--memory 24GiB", func(p *plan.TargetHost) { p.MemoryBytes, p.MemoryFrom = 24<<30, plan.FactGiven }, nil},
		{"a later stable update", func(p *plan.TargetHost) { p.Kernel = "6.18.50" }, nil},
		{"--kernel 6.18", func(p *plan.TargetHost) { p.Kernel, p.KernelFrom = "6.18", plan.FactGiven }, nil},
		{"1 GiB", func(p *plan.TargetHost) { p.MemoryBytes, p.MemoryFrom = 1<<30, plan.FactGiven },
			[]string{"the plan is for 1 GiB of memory (given with --memory); this host has 23.5 GiB (MemTotal)"}},
		{"64 GiB read elsewhere", func(p *plan.TargetHost) { p.MemoryBytes, p.ReadFrom = 64<<30, "big" },
			[]string{`the plan is for 64 GiB of memory (read from host "big"); this host has 23.5 GiB (MemTotal)`}},
		{"kernel 5.15", func(p *plan.TargetHost) { p.Kernel, p.KernelFrom = "5.15", plan.FactGiven },
			[]string{"the plan is for kernel 5.15 (given with --kernel); this host runs 6.18.44-fc-v669"}},
		{"32-bit", func(p *plan.TargetHost) { p.Arch, p.ArchFrom, p.WordBits = "i686", plan.FactGiven, 32 },
			[]string{"the plan is for i686 (32-bit, given with --arch); this host is x86_64 (64-bit)"}},
		{"another family", func(p *plan.TargetHost) { p.Arch, p.ArchFrom = "aarch64", plan.FactGiven },
			[]string{"the plan is for aarch64 (64-bit, given with --arch); this host is x86_64 (64-bit)"}},
		{"64 KiB pages", func(p *plan.TargetHost) { p.PageSizeBytes, p.PageSizeFrom = 65536, plan.FactGiven },
			[]string{"the plan counts pages of 64 KiB (given with --page-size); this host's pages are 4 KiB (tcp_mem and udp_mem are in pages)"}},
		{"64 CPUs", func(p *plan.TargetHost) { p.CPUs = 64 }, []string{`the plan is for 64 CPUs (read from host "vm"); this host has 2`}},
		{"CPUs unknown", func(p *plan.TargetHost) { p.CPUs, p.CPUsFrom = 0, "" }, nil},
		{"all at once", func(p *plan.TargetHost) {
			p.MemoryBytes, p.MemoryFrom, p.Kernel, p.KernelFrom = 1<<30, plan.FactGiven, "5.15", plan.FactGiven
		}, []string{"1 GiB of memory", "kernel 5.15"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hereTarget()
			tc.edit(&p)
			got := (&Origin{Plan: &p}).Mismatch(hereFacts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %d line(s) %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("line %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
	// A host fact that could not be read is a difference: nothing shows the plan fits.
	h := hereFacts
	h.Arch, h.WordBits = "", 0
	p := hereTarget()
	if got := (&Origin{Plan: &p}).Mismatch(h); len(got) != 1 || !strings.Contains(got[0], "machine type is unknown") {
		t.Errorf("unknown arch here: %q", got)
	}
	// A planted figure far beyond int64 arithmetic is a difference, not an overflow.
	p.MemoryBytes = 1 << 62
	if got := (&Origin{Plan: &p}).Mismatch(hereFacts); len(got) != 1 {
		t.Errorf("2^62 bytes of memory: %q", got)
	}
}

// ParseInput finds a plan's target host in target_host, or, in a plan of a headroom before
// it, in the input; a {"changes": ...} object and a bare array have no host.
func TestParseInputPlanTarget(t *testing.T) {
	settings := `"settings":[{"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192"}]`
	for _, tc := range []struct {
		name, in string
		mem      int64
		from     plan.FactSource
	}{
		{"target_host", `{"target_host":{"memory_bytes":1073741824,"memory_from":"given","kernel":"6.18","arch":"x86_64","word_bits":64,"page_size_bytes":4096},` + settings + `}`, 1 << 30, plan.FactGiven},
		{"input of an older plan", `{"input":{"memory_bytes":1073741824,"kernel_version":"6.18.44","arch":"x86_64","page_size_bytes":4096},"word_bits":64,` + settings + `}`, 1 << 30, ""},
		{"changes object", `{"changes":[{"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192"}]}`, 0, ""},
		{"array", `[{"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192"}]`, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, o, err := ParseInput(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if tc.mem == 0 {
				if o != nil {
					t.Fatalf("origin %+v for input without a host", o)
				}
				return
			}
			if o == nil || o.Plan == nil || o.Plan.MemoryBytes != tc.mem || o.Plan.MemoryFrom != tc.from {
				t.Fatalf("origin %+v", o)
			}
			if got := o.Mismatch(hereFacts); len(got) != 1 || !strings.Contains(got[0], "1 GiB of memory") {
				t.Errorf("mismatch %q", got)
			}
			if !strings.Contains(o.NotFor(), "plan") {
				t.Errorf("NotFor %q", o.NotFor())
			}
		})
	}
}
