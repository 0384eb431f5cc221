package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// A block of settings introduced as advice is a recommendation, not the host's values; one
// introduced as what the author has or applied stays the host's (corpus 1953's form).
func TestAdviceBlockSettings(t *testing.T) {
	for _, tc := range []struct {
		name, lead string
		want       string
	}{
		{"english add the following", "To fix it, add the following to /etc/sysctl.conf:", model.SubjectAdvice},
		{"english recommended", "The recommended values for a 10 Gbit/s host are:", model.SubjectAdvice},
		{"chinese suggested values", "需要在节点上修改，建议修改值:", model.SubjectAdvice},
		{"chinese need to configure", "如果要调整 TCP 接收缓冲区，需要显式在 Pod 级别配置下内核参数:", model.SubjectAdvice},
		{"own current settings", "Here are my current settings:", ""},
		{"own applied recommended", "I applied the recommended values:", ""},
		{"no colon", "We recommend larger buffers on busy hosts.", ""},
		{"plain lead", "The host has:", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := "Some intro text about UDP drops on our nodes.\n\n" + tc.lead + "\n\n```bash\n# receive side\nnet.core.rmem_max=26214400\nnet.core.rmem_default = 262144 # the default\n```\n"
			tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tl.Settings) != 2 {
				t.Fatalf("settings %+v", tl.Settings)
			}
			for _, m := range tl.Settings {
				if m.Subject != tc.want {
					t.Errorf("%s = %q: subject %q, want %q", m.Key, m.Value, m.Subject, tc.want)
				}
			}
		})
	}
}
