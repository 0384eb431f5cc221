package artifact

import (
	"headroom/kernel"
	"headroom/model"
)

// The swap totals of a show_mem footer ("Free swap  = 0kB", "Total swap = 5192696kB": lib/
// show_mem.c __show_mem → show_swap_cache_info, printed in every OOM and allocation-failure
// report and by SysRq-m) are the host's swap at the moment the kernel printed the dump, what
// /proc/meminfo's SwapFree and SwapTotal said then. They are fed to the timeline as one
// snapshot sample of those two figures, so the rules that read a snapshot of swap
// (swap-under-load without a rate: an exhausted swap) see them. Both lines of one dump are
// needed: a free figure alone says nothing of the share used.

// swapFooter is implemented by the artifacts that keep a show_mem footer.
type swapFooter interface{ footerTotals() *kernel.Counters }

func (x reportExtras) footerTotals() *kernel.Counters { return x.Totals }
func (s ShowMem) footerTotals() *kernel.Counters      { return s.Totals }

// addSwapSnapshots appends one sample per dump whose footer printed both swap totals.
func (d *doc) addSwapSnapshots() {
	for _, a := range d.tl.Artifacts {
		f, ok := a.Data.(swapFooter)
		if !ok {
			continue
		}
		t := f.footerTotals()
		if t == nil {
			continue
		}
		free, ok1 := t.Get("free_swap_kb")
		total, ok2 := t.Get("total_swap_kb")
		if !ok1 || !ok2 || free > total {
			continue
		}
		mi := &kernel.Counters{}
		mi.Set("SwapTotal", total)
		mi.Set("SwapFree", free)
		d.tl.Samples = append(d.tl.Samples, model.Sample{
			Source:  spanSource(a.FirstLine, a.LastLine) + " (the swap totals of a show_mem dump, when the kernel printed it)",
			MemInfo: mi})
	}
}
