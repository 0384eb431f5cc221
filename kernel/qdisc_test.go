package kernel

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

func gzipText(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestQdiscAvailability(t *testing.T) {
	const rel = "6.1.0-50-amd64"
	for _, c := range []struct {
		name  string
		files map[string][]byte
		dirs  []string
		want  Availability
		from  string
	}{
		{name: "nothing to read", want: Unknown},
		{name: "loaded module", dirs: []string{"sys/module/sch_fq"}, want: Available, from: "/sys/module/sch_fq"},
		{name: "module on disk", files: map[string][]byte{"lib/modules/" + rel + "/modules.dep": []byte("kernel/net/sched/sch_fq.ko: \n")},
			want: Available, from: "/lib/modules/" + rel + "/modules.dep"},
		{name: "built in", files: map[string][]byte{"proc/config.gz": gzipText(t, "CONFIG_NET_SCHED=y\nCONFIG_NET_SCH_FQ=y\n")},
			want: Available, from: "/proc/config.gz"},
		{name: "not set", files: map[string][]byte{"proc/config.gz": gzipText(t, "CONFIG_NET_SCHED=y\n# CONFIG_NET_SCH_FQ is not set\n")},
			want: Unavailable, from: "/proc/config.gz"},
		// This project's lab kernel: HTB but no fq, the option not even listed.
		{name: "not in the configuration", files: map[string][]byte{"proc/config.gz": gzipText(t, "CONFIG_NET_SCH_HTB=y\nCONFIG_NET_SCH_FQ_CODEL=y\n")},
			want: Unavailable, from: "/proc/config.gz"},
		{name: "fq_codel is not fq", files: map[string][]byte{"lib/modules/" + rel + "/modules.builtin": []byte("kernel/net/sched/sch_fq_codel.ko\n")},
			want: Unknown},
		{name: "not gzip", files: map[string][]byte{"proc/config.gz": []byte("CONFIG_NET_SCH_FQ=y\n")}, want: Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range c.dirs {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, b := range c.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, from := QdiscAvailability(DirRoot(dir), rel, "fq")
			if got != c.want || from != c.from {
				t.Errorf("QdiscAvailability = %q from %q, want %q from %q", got, from, c.want, c.from)
			}
		})
	}
}
