package artifact

import (
	"testing"
)

// h40c: host memory an LLM server logs about its own host, free -h --si cells, exit codes
// explained rather than told, and kernel versions that are not the running kernel. Each
// snippet is written for its class from the program's docs or source, none copied from a case.

// ollama llm/server.go NewLlamaServer: slog.Info("system memory", "total", ..., "free", ...,
// "free_swap", ...) with format.HumanBytes2 sizes; discover/gpu.go's debug "updating system
// memory data" (github.com/ollama/ollama). The program states the figures are the host's.
func TestH40cOllamaSystemMemory(t *testing.T) {
	for _, c := range []struct {
		text              string
		total, free, swap int64
	}{
		{`time=2024-05-01T10:00:00.000Z level=INFO source=server.go:101 msg="system memory" total="62.5 GiB" free="58.3 GiB" free_swap="8.0 GiB"` + "\n", 65536000, 61131980, 8388608},
		{`May 16 17:44:49 box ollama[6012]: time=2025-05-16T17:44:49.091+02:00 level=INFO source=server.go:135 msg="system memory" total="31.2 GiB" free="20.0 GiB" free_swap="0 B"` + "\n", 32715571, 20971520, 0},
		// a journal line hard-wrapped by the poster: msg= on the continuation line
		{"May 16 17:44:49 box ollama[6012]: time=2025-05-16T17:44:49.091+02:00 level=INFO source=server.go:135\n msg=\"system memory\" total=\"62.6 GiB\" free=\"59.1 GiB\" free_swap=\"215.1 MiB\"\n", 65640857, 61970841, 220262},
		{`Feb 21 01:41:19 box ollama[402476]: time=2025-02-21T01:41:19.758Z level=DEBUG source=gpu.go:391 msg="updating system memory data" before.total="1007.5 GiB" before.free="990.3 GiB" before.free_swap="8.0 GiB" now.total="1007.5 GiB" now.free="980.0 GiB" now.free_swap="8.0 GiB"` + "\n", 1056440320, 1027604480, 8388608},
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.MemTotalKB != c.total {
			t.Errorf("%q: host memory %d KiB, want %d", c.text, tl.Host.MemTotalKB, c.total)
		}
		found := false
		for _, a := range tl.Artifacts {
			m, ok := a.Data.(map[string]any)
			if !ok || m["program"] != "ollama" {
				continue
			}
			found = true
			if m["mem_total_kb"] != c.total || m["mem_free_kb"] != c.free || m["swap_free_kb"] != c.swap {
				t.Errorf("%q: artifact %v, want total %d free %d swap %d", c.text, m, c.total, c.free, c.swap)
			}
		}
		if !found {
			t.Errorf("%q: no ollama host memory artifact: %+v", c.text, tl.Artifacts)
		}
		if statedOOM(tl) || len(tl.Unparsed) != 0 {
			t.Errorf("%q: an OOM or an unread line: %+v", c.text, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: the message named in a sentence or a question, a GPU's memory line,
	// another program's "system memory" words with no quoted total=.
	for _, text := range []string{
		"What does msg=\"system memory\" in the ollama log mean?\n",
		"The docs list msg=\"updating system memory data\" among the debug messages.\n",
		`time=2025-02-21T01:41:19.649Z level=DEBUG source=gpu.go:441 msg="updating cuda memory data" gpu=GPU-1 name="NVIDIA A800" overhead="0 B" before.total="79.3 GiB" before.free="78.9 GiB" now.total="79.3 GiB" now.free="78.9 GiB"` + "\n",
		"app[12]: system memory total=62 free=58\n",
	} {
		tl := ParseString(text, "p", Options{})
		for _, a := range tl.Artifacts {
			if m, ok := a.Data.(map[string]any); ok && m["program"] == "ollama" {
				t.Errorf("%q: read as ollama's host memory: %v", text, m)
			}
		}
	}
}

// procps free(1): "--si  Use kilo, mega, giga etc (power of 1000)"; without it -h prints
// binary suffixes ("62Gi", "1.5Ti", "980Mi", "0B"), a locale's decimal comma included.
func TestH40cFreeHumanUnits(t *testing.T) {
	const head = "               total        used        free      shared  buff/cache   available\n"
	for _, c := range []struct {
		text string
		mem  []int64
		swap []int64
	}{
		{"$ free -h\n" + head + "Mem:            62Gi       3.1Gi        55Gi       980Mi       4.0Gi        58Gi\nSwap:          8.0Gi          0B       8.0Gi\n",
			[]int64{65011712, 3250586, 57671680, 1003520, 4194304, 60817408}, []int64{8388608, 0, 8388608}},
		{"$ free -h\n" + head + "Mem:           1.5Ti       980Mi       1.2Ti          0B       300Gi       1.4Ti\nSwap:             0B          0B          0B\n",
			[]int64{1610612736, 1003520, 1288490189, 0, 314572800, 1503238554}, []int64{0, 0, 0}},
		{"$ free -h\n" + head + "Mem:            15Gi       1,2Gi        12Gi       120Mi       1,5Gi        13Gi\nSwap:          2,0Gi          0B       2,0Gi\n",
			[]int64{15728640, 1258291, 12582912, 122880, 1572864, 13631488}, []int64{2097152, 0, 2097152}},
		// --si: powers of 1000, "67G" is 67e9 bytes
		{"$ free -h --si\n" + head + "Mem:             67G        3.3G         59G        1.0G        4.3G         62G\nSwap:           8.6G          0B        8.6G\n",
			[]int64{65429688, 3222656, 57617188, 976563, 4199219, 60546875}, []int64{8398438, 0, 8398438}},
	} {
		tl := ParseString(c.text, "p", Options{})
		if len(tl.Artifacts) != 1 {
			t.Fatalf("%q: artifacts %+v", c.text, tl.Artifacts)
		}
		tb := tl.Artifacts[0].Data.(*FreeTable)
		for i, v := range c.mem {
			if tb.Rows["Mem"][i] != v {
				t.Errorf("%q: Mem %v, want %v", c.text, tb.Rows["Mem"], c.mem)
				break
			}
		}
		for i, v := range c.swap {
			if tb.Rows["Swap"][i] != v {
				t.Errorf("%q: Swap %v, want %v", c.text, tb.Rows["Swap"], c.swap)
				break
			}
		}
	}
}

// Kubernetes' docs on a container's last state (kubernetes.io/docs/tasks/debug/
// debug-application/debug-running-pod, "Reason: OOMKilled ... Exit Code: 137") and Docker's
// run reference (docs.docker.com/engine/containers/run: exit status 137 = 128 + SIGKILL)
// explain what a code means; answers repeat them. An explanation is no kill on this host;
// a sentence that tells what happened stays one.
func TestH40cExitCodeMeaning(t *testing.T) {
	for _, text := range []string{
		"Exit code 137 means the container was OOMKilled.\n",
		"Exit 137 means OOMKilled (exit 137) in general.\n",
		"Exit code 137 usually means the container was OOMKilled.\n",
		"Exit code 137 means the process was killed by the OOM killer.\n",
		"In general a SIGKILL (9) usually means the OOM killer.\n",
		"Exit status 137 (128 + 9) indicates the container was killed by the OOM killer.\n",
		"OOMKilled (exit code 137) means the container was killed because it exceeded its memory limit.\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: an explanation read as a kill", text)
		}
	}
	for _, text := range []string{
		"the pod was OOMKilled (exit 137) after 10 minutes\n",
		"My container exited with code 137, which means it was OOMKilled.\n",
		"Exit code 137 means the container was OOMKilled. Our pod was OOMKilled twice today.\n",
		"The worker was killed by the OOM killer last night (exit code 137).\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: a kill told not read", text)
		}
	}
}

// file(1)'s "for GNU/Linux 3.2.0" (the ELF note's minimum kernel), readelf's "ABI: 3.2.0",
// glibc's "Compiled on a Linux 5.15.0 system" (libc.so.6's banner, csu/version.c), a
// headers package's name: none is the running kernel.
func TestH40cKernelVersionNotRunning(t *testing.T) {
	for _, text := range []string{
		"$ file /usr/bin/foo\n/usr/bin/foo: ELF 64-bit LSB pie executable, x86-64, version 1 (SYSV), dynamically linked, interpreter /lib64/ld-linux-x86-64.so.2, for GNU/Linux 3.2.0, stripped\n",
		"$ readelf -n /usr/bin/foo\n    OS: Linux, ABI: 3.2.0\n",
		"GNU C Library (Ubuntu GLIBC 2.35-0ubuntu3) stable release version 2.35.\nCompiled by GNU CC version 11.2.0.\nCompiled on a Linux 5.15.0 system on 2022-01-01.\n",
		"$ sudo apt install linux-headers-5.4.0-42-generic\n",
		"Applies to:\n  • Virtuozzo containers for Linux 4.7\n",
		"Parallels Server for Linux 4.0 and Plesk for Linux 12.5\n",
	} {
		if tl := ParseString(text, "t", Options{}); tl.Host.Kernel != "" {
			t.Errorf("%q: kernel %q read as the running kernel", text, tl.Host.Kernel)
		}
	}
	// the running kernel stays read
	if tl := ParseString("$ uname -r\n5.15.0-91-generic\n", "t", Options{}); tl.Host.Kernel == "" {
		t.Errorf("uname -r: no kernel read")
	}
	// a kernel named after "for Linux" without a product word stays the text's kernel
	if tl := ParseString("This box runs the backport for Linux 4.7 now.\n", "t", Options{}); tl.Host.Kernel != "4.7" {
		t.Errorf("patch for Linux 4.7: kernel %q, want 4.7", tl.Host.Kernel)
	}
}
