package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// A container's last state on one line, as Rancher's dashboard and kubectl front ends print
// it (corpus case 1600): "OOMKilled | Last state: Terminated with 137: OOMKilled, started:
// Sun, Apr 6 2025 9:18:56 pm, finished: Sun, Apr 6 2025 9:19:07 pm". The pieces are the
// container status's lastState.terminated exitCode and reason, so the line is the same
// evidence as kubectl describe's "Last State: Terminated / Reason: OOMKilled / Exit Code: 137"
// block (kube_pod.go). The line must start with the state, alone or after table cells
// ("OOMKilled | "): a sentence that paraphrases it ("describe shows Last State: Terminated
// with exit code 137") or advice ("if you see ...") is not read.
var reKubeLastStateLine = lazyre.New(`^(?:[^|]*\|\s*)*Last [Ss]tate:\s+Terminated with (\d+): ([A-Z][A-Za-z]+)\b`)

// kubeLastStateLines reads the one-line last states among the prose lines.
func (d *doc) kubeLastStateLines() {
	for _, p := range d.proseLines {
		t := strings.TrimSpace(p.text)
		if !strings.Contains(t, "Terminated with ") {
			continue
		}
		m := reKubeLastStateLine.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		code, err := strconv.Atoi(m[1])
		if err != nil || code > 255 {
			continue
		}
		s := KubeTerminated{Reason: m[2], ExitCode: &code}
		if _, fin, ok := strings.Cut(t, ", finished: "); ok {
			s.Finished = strings.TrimSpace(fin)
		}
		d.addKubeTerminated(s, p.no, p.no)
	}
}
