package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestKubeletEvictionBelowReserve(t *testing.T) {
	zone := kernel.Zone{Node: 0, Name: "Normal"}
	for k, v := range map[string]int64{"free": 100000, "min": 16896, "low": 21120, "high": 25344, "managed": 4000000} {
		zone.Fields.Set(k, v)
	}
	tl := func(threshold string, bytes int64, minFree string) *model.Timeline {
		t := &model.Timeline{Host: model.Host{PageSize: 4096, Sysctls: map[string]string{"vm.min_free_kbytes": minFree}},
			Samples: []model.Sample{{Zones: []kernel.Zone{zone}}}}
		if threshold != "" {
			t.Kubelet = &model.KubeletEviction{Threshold: threshold, Bytes: bytes, Source: "cfg evictionHard"}
		}
		return t
	}
	r := checkKubeletEviction(tl("50Mi", 50<<20, "67584"))
	if len(r.Findings) != 1 {
		t.Fatalf("50Mi under a 66 MiB reserve: %+v", r)
	}
	// high watermark 25344 pages = 99 MiB > 1.5 × 66 MiB: the recommendation is 99Mi.
	if c := r.Findings[0].Changes[0]; c.Recommended != "99Mi" || c.Current != "50Mi" {
		t.Errorf("change %+v", c)
	}
	if r = checkKubeletEviction(tl("100Mi", 100<<20, "67584")); len(r.Findings) != 0 || !strings.Contains(r.Checked, "100Mi") {
		t.Errorf("100Mi above 66 MiB: %+v", r)
	}
	if r = checkKubeletEviction(tl("", 0, "67584")); r.NotChecked == "" {
		t.Errorf("no kubelet: %+v", r)
	}
	if r = checkKubeletEviction(tl("50Mi", 50<<20, "")); r.NotChecked == "" {
		t.Errorf("no min_free_kbytes: %+v", r)
	}
}
