package artifact

import "testing"

// fix71d (corpus 7274): /proc/vmstat counters of two kernels' runs side by side under a
// header naming them. The table is kept with its columns and judged by nothing (no sample:
// neither column is the host's since boot); a vmstat file of one column stays a sample.
func TestVMStatColumnsAreRunsNotTheHost(t *testing.T) {
	text := ">>                       v4.4           v3.18\n" +
		">> pgpgin                163016456      145617236\n" +
		">> pswpin                1327601        1133912\n" +
		">> pswpout               3593842        3229602\n" +
		">> pgsteal_direct_dma    206757         131376\n" +
		">> allocstall            7220           4684\n"
	tl := ParseString(text, "t", Options{})
	var got *VMStatColumns
	for _, a := range tl.Artifacts {
		if a.Kind == KindVMStatColumns {
			got, _ = a.Data.(*VMStatColumns)
		}
	}
	if got == nil || len(got.Columns) != 2 || got.Columns[1] != "v3.18" || len(got.Counters["allocstall"]) != 2 || got.Counters["allocstall"][1] != 4684 {
		t.Fatalf("table %+v, want columns v4.4, v3.18 and allocstall 7220, 4684", got)
	}
	if len(tl.Samples) != 0 {
		t.Errorf("%d samples, want none", len(tl.Samples))
	}
	one := ParseString("pgpgin 163016456\npswpin 1327601\npswpout 3593842\nallocstall 7220\n", "t", Options{})
	if len(one.Samples) != 1 || one.Samples[0].VMStat == nil {
		t.Errorf("a one-column /proc/vmstat: %d samples, want its sample", len(one.Samples))
	}
}
