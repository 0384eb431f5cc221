package artifact

import (
	"testing"

	"headroom/model"
)

// A product's version in an environment list, a tracker template or a sentence is not the
// kernel's (nginx-gateway-fabric #1617 read "NGF 2.4.2" as kernel 2.4.2 and warned of a
// pre-2.6 kernel); the kernel's own forms keep their reading.
func TestFix25aProductVersionNotKernel(t *testing.T) {
	line := "Tue May 31 13:51:28 2022 - *** uWSGI listen queue of socket \":3030\" (fd: 4) full !!! (101/100) ***\n"
	for _, c := range []struct{ text, want string }{
		{"**Production impact on NGF 2.4.2 (EKS)**\n\n**Environment:**\n- NGF/nginx: `2.4.2`\n- EKS: `1.35`\n", ""},
		{"The environment is that Mosquitto 2.0.14 is started via systemd on RHEL8.\n", ""},
		{"**Elasticsearch version**: 2.3.0\n", ""},
		{"Logstash version is 2.1.0\n", ""},
		{"# influxdb 2.0.7, 2.1.1 and 2.6.1 fail to start\n", ""},
		{"I have been running gobgp (ver 2.1.0) on two 16GB Linux VMs.\n", ""},
		// counter-cases: the kernel's release in its own forms and a bare one after a
		// word of the sentence or a distribution's name
		{"Kernel: 5.15.0-91-generic\n", "5.15.0-91-generic"},
		{"$ uname -r\n5.15.0-91-generic\n", "5.15.0-91-generic"},
		{"Linux 4.19.0 on a Kirkwood.\n", "4.19.0"},
		{"We run kernel version 2.6.32 on the router.\n", "2.6.32"},
		{"OS: Ubuntu 22.04, kernel 6.8\n", "6.8"},
		{"While running 2.6.7 on my Amiga, I got:\n", "2.6.7"},
		{"A test machine (debian squeeze 2.6.32 on a linode) drops packets.\n", "2.6.32"},
		{"Subject: Re: 2.6.10-rc1-bk page allocation failure. order:2, mode:0x20\n", "2.6.10-rc1"},
		{"Kernel : 2.6.31\n", "2.6.31"},
		{"X-Operating-System: Linux naboo.gnumonks.org 2.4.9\n", "2.4.9"},
	} {
		tl := ParseString(c.text+line, "t", Options{})
		if got := tl.Host.Kernel; got != c.want {
			t.Errorf("%q: kernel %q, want %q", c.text, got, c.want)
		}
	}
}

// Kubernetes' OOMKilled as the adjective of counted victims, in the author's past: an OOM
// kill stated (nginx-gateway-fabric #1617); a question, advice, a negation and a plan state none.
func TestFix25aStatedOOMKilledCount(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"4. HPA continuously scales on memory. Deployment ran at **max 20 replicas** yesterday with **multiple OOMKilled** data plane pods (confirmed via Grafana).\n", 1},
		{"We had 3 OOMKilled containers after the upgrade.\n", 1},
		{"Why did we get several OOM-killed workers last night?\n", 1},
		// counter-cases
		{"Are pods OOMKilled?\n", 0},
		{"To avoid OOMKilled pods, set limits.\n", 0},
		{"To avoid multiple OOMKilled pods, set memory limits.\n", 0},
		{"There were no OOMKilled pods.\n", 0},
		{"We saw 0 OOMKilled pods today.\n", 0},
		{"Did you see multiple OOMKilled pods yesterday?\n", 0},
		{"If you have several OOMKilled pods, raise the limit.\n", 0},
		{"Kubernetes restarts multiple OOMKilled pods.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated kill %v, want %v", c.text, got, c.want)
		}
	}
}
