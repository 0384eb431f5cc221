package artifact

import (
	"fmt"
	"strings"
	"testing"

	"headroom/model"
)

// Issue 29 item 4: the output of this domain's commands and kernel files that no reader
// takes is listed as unread, naming the command, instead of being counted as prose (a paste
// of nothing else then exited 3, "nothing ... is evidence").
func TestUnreadCommandOutputNamed(t *testing.T) {
	for _, c := range []struct {
		name, text  string
		first, last int
		cmd         string
	}{
		{
			// corpus 820's form: a vendor how-to, every line indented, a blank line
			// between every two; "key = number" lines and a two-column table.
			name: "sysfs qos buffer_size, double-spaced",
			text: "    1. To query the Receive Buffer size, run the following command:\n\n" +
				"    # cat /sys/class/net/eth1/qos/buffer_size\n\n" +
				"    Port buffer size = 262016\n\n    Spare buffer size = 128\n\n    Buffer Size\n\n" +
				"    0 130944\n\n    1 130944\n\n    2 0\n\n" +
				"    Note: To understand which priority belongs to which buffer, see prio2buffer parameter below.\n",
			// The lines are counted once the paste is undoubled (undoubleSpace), as a
			// quoted-printable mail's are once it is decoded: 5-15 as pasted.
			first: 3, last: 8, cmd: "cat /sys/class/net/eth1/qos/buffer_size",
		},
		{
			name: "ethtool --show-priv-flags",
			text: "root@host:~# ethtool --show-priv-flags eth0\nPrivate flags for eth0:\nrx_cqe_moder       : on\n" +
				"tx_cqe_moder       : off\nrx_cqe_compress    : off\nrx_striding_rq     : on\n",
			first: 2, last: 6, cmd: "ethtool --show-priv-flags eth0",
		},
		{
			// headroom has no tc reader: the class's counters are unread, its
			// "class htb ..." line (no count) goes with them.
			name: "tc -s class",
			text: "# tc -s class show dev eth0\nclass htb 1:1 root rate 1Gbit ceil 1Gbit burst 1375b cburst 1375b\n" +
				" Sent 1502918 bytes 9870 pkt (dropped 12, overlimits 0 requeues 0)\n rate 0bit 0pps backlog 0b 0p requeues 0\n" +
				" lended: 0 borrowed: 0 giants: 0\n tokens: 187 ctokens: 187\n\nThe drops grow under load.\n",
			first: 2, last: 6, cmd: "tc -s class show dev eth0",
		},
		{
			// ethtool -c: "Coalesce parameters for eth0:" and "rx-usecs: 3" are shaped
			// like kernel messages, and the six lines were read as a kernel log.
			name:  "ethtool -c",
			text:  "$ sudo ethtool -c eth0\nCoalesce parameters for eth0:\nAdaptive RX: on  TX: off\nrx-usecs: 3\nrx-frames: 0\ntx-usecs: 16\n",
			first: 2, last: 6, cmd: "ethtool -c eth0",
		},
		{
			name:  "a path as a heading",
			text:  "`/proc/vmstat`:\n\n```\ncompact_stall    15\ncompact_fail     15\ncompact_success   0     (0 of 15 attempts)\n```\n",
			first: 4, last: 6, cmd: "/proc/vmstat",
		},
		{
			// a process table sorted by memory: pid, command, shares (g36-g39 class)
			name:  "ps sorted by memory",
			text:  "Top memory users:\nuser@box:~ $ ps -eo pid,comm,%mem --sort=-%mem\nPID COMMAND %MEM\n4411 postgres 12.5\n907 java 3.1\n",
			first: 3, last: 5, cmd: "ps -eo pid,comm,%mem --sort=-%mem",
		},
		{
			// a router OS's operational command under its prompt (VyOS, EdgeOS)
			name:  "network OS show command",
			text:  "admin@gw1:~$ show conntrack table ipv6\nId   Proto  State      Timeout\n---  -----  ---------  -------\n77   udp    ASSURED    29\n",
			first: 2, last: 4, cmd: "show conntrack table ipv6",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tl := ParseString(c.text, "t", Options{})
			var got []model.Unparsed
			for _, u := range tl.Unparsed {
				if strings.HasPrefix(u.Why, "output of `") {
					got = append(got, u)
				}
			}
			if len(got) != 1 || got[0].FirstLine != c.first || got[0].LastLine != c.last ||
				got[0].Why != "output of `"+c.cmd+"`: no reader for it" {
				t.Fatalf("unparsed %+v, want lines %d-%d of `%s`", tl.Unparsed, c.first, c.last, c.cmd)
			}
			for _, l := range tl.Log.All() {
				if l.Line() >= c.first && l.Line() <= c.last {
					t.Errorf("line %d read as a kernel log record: %q", l.Line(), l.Message)
				}
			}
			checkAccount(t, tl)
		})
	}
}

// checkAccount: every line is counted once, and no count is negative.
func checkAccount(t *testing.T, tl *model.Timeline) {
	t.Helper()
	a := tl.Lines
	if a == nil {
		t.Fatal("no line account")
	}
	if a.Read < 0 || a.Prose < 0 || a.Blank < 0 || a.Other < 0 || a.Unparsed < 0 ||
		a.Read+a.Prose+a.Blank+a.Other+a.Unparsed != a.Total {
		t.Errorf("line account %+v does not add up", *a)
	}
}

// The text without a domain command stays evidence-free: a k6 load test's log (corpus
// 881), prose that states numbers, a transcript of other commands, a prompt that sets
// rather than reads, version strings and dates under a command.
func TestUnreadCommandOutputNotFromNoise(t *testing.T) {
	for name, text := range map[string]string{
		"k6 log (881)": "WARN[0000] Request Failed ... socket: too many open files\n\n## Environment\n\n" +
			"- k6 version: `k6 v0.31.1 (2021-03-17T13:23:23+0000/e9d8349, go1.15.8, linux/amd64)`\n- OS and version: Fedora-34\n\n" +
			"```\nWARN[0000] Request Failed                                error=\"Get \\\"http://localhost:3000\\\": dial tcp 127.0.0.1:3000: socket: too many open files\"\n```\n" +
			"1. create a simple sample server script, e.g.:\n```javascript\nconst port = 3000\napp.listen(port, () => {\n  console.log(`listening at ${port}`)\n})\n```\n",
		"prose with numbers": "We run 12 servers with 64 GB of RAM each and 2 NICs of 10 Gbit.\n" +
			"Since the upgrade to 5.4 about 3 of them drop 1500 packets per second at peak,\n" +
			"and the latency goes from 2 ms to 40 ms.\n",
		"other commands": "$ ls -l /var/log\ntotal 2048\n-rw-r----- 1 root adm 1048576 Nov 29 14:48 syslog\n" +
			"$ df -h /\nFilesystem      Size  Used Avail Use% Mounted on\n/dev/sda1        40G   21G   17G  56% /\n" +
			"$ docker ps\nCONTAINER ID   IMAGE   COMMAND   CREATED   STATUS\n3f2a1b   nginx   \"nginx\"   2 days ago   Up 2 days\n",
		"a write":    "# echo 30000,20000,40000 > /sys/class/net/eth1/qos/buffer_size\n\n# ethtool -G eth0 rx 4096\n4096 2048\n",
		"ethtool -i": "# ethtool -i eth0\ndriver: igb\nversion: 5.4.0-k\nfirmware-version: 1.61, 0x8000090e\nbus-info: 0000:01:00.0\n",
		"a date":     "$ cat /proc/meminfo\nSun Nov 29 14:48:24 UTC 2026\n",
		"a sentence": "$ free -m\nIt shows 2048 MB used\n",
		"headings": "# free memory on the host\n1. 2048 MB are used\n" +
			"### ip address of the host\n10 20 30\n",
	} {
		t.Run(name, func(t *testing.T) {
			tl := ParseString(text, "t", Options{})
			for _, u := range tl.Unparsed {
				// k6's "socket: too many open files" is named as the errno EMFILE (h12b,
				// unreaderrno.go), never as a command's output.
				if !strings.HasPrefix(u.Why, "the errno EMFILE") {
					t.Errorf("unparsed %+v", u)
				}
			}
			checkAccount(t, tl)
		})
	}
}

// One text adds at most maxUnreadEntries unread entries: a paste of many commands, each
// with a line of output no reader takes, lists the first ones and counts the rest as prose.
func TestUnreadCommandOutputBounded(t *testing.T) {
	var b strings.Builder
	n := 3 * maxUnreadEntries
	for k := range n {
		fmt.Fprintf(&b, "# cat /sys/class/net/eth%d/qos/buffer_size\nPort buffer size = %d\n\n", k, 262016+k)
	}
	tl := ParseString(b.String(), "t", Options{})
	if got := len(tl.Unparsed); got != maxUnreadEntries {
		t.Errorf("%d unparsed entries of %d outputs, want %d", got, n, maxUnreadEntries)
	}
	checkAccount(t, tl)
	if tl.Lines.Unparsed != maxUnreadEntries || tl.Lines.Prose != 2*n-maxUnreadEntries {
		t.Errorf("account %+v", *tl.Lines)
	}
}

// cat of several sysctl files prints one line per file: the values are the host's.
func TestCatProcSysList(t *testing.T) {
	tl := ParseString("$ cat /proc/sys/net/ipv4/tcp_rmem /proc/sys/net/ipv4/tcp_wmem /proc/sys/net/core/rmem_max\n"+
		"4096 131072 6291456\n4096 16384 4194304\n212992\n", "t", Options{})
	want := map[string]string{"net.ipv4.tcp_rmem": "4096 131072 6291456", "net.ipv4.tcp_wmem": "4096 16384 4194304", "net.core.rmem_max": "212992"}
	for k, v := range want {
		if got := tl.Host.Sysctls[k]; got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if len(tl.Unparsed) != 0 || tl.Lines.Read != 4 {
		t.Errorf("unparsed %+v, account %+v", tl.Unparsed, *tl.Lines)
	}
	// A value missing: the files and the lines no longer pair, nothing is guessed.
	tl = ParseString("$ cat /proc/sys/net/ipv4/tcp_rmem /proc/sys/net/ipv4/tcp_wmem\n4096 131072 6291456\n\nThat is all.\n", "t", Options{})
	if v, ok := tl.Host.Sysctls["net.ipv4.tcp_wmem"]; ok {
		t.Errorf("tcp_wmem = %q from a list one line short", v)
	}
}

func TestShellCommandLine(t *testing.T) {
	for _, c := range []struct {
		line   string
		cmd    string
		domain bool
	}{
		{"# cat /sys/class/net/eth1/qos/buffer_size", "cat /sys/class/net/eth1/qos/buffer_size", true},
		{"[root@db1 ~]# sudo ethtool -S eth0 | grep drop", "ethtool -S eth0 | grep drop", true},
		{"linux-abc:~ # tc -s qdisc", "tc -s qdisc", true},
		{"sh-4.2# sar -n DEV 1 3", "sar -n DEV 1 3", true},
		{"user@h:~$ watch -n 1 cat /proc/net/softnet_stat", "cat /proc/net/softnet_stat", true},
		{"$ ip -s -s link show eth0", "ip -s -s link show eth0", true},
		{"ethtool -c eth0", "ethtool -c eth0", true},
		{"### `ss -tmi`:", "ss -tmi", true},
		{"/sys/kernel/mm/transparent_hugepage/defrag:", "/sys/kernel/mm/transparent_hugepage/defrag", true},
		{"$ ip link set eth0 mtu 9000", "ip link set eth0 mtu 9000", false},
		{"# ethtool -G eth0 rx 4096", "ethtool -G eth0 rx 4096", false},
		{"# sysctl -w vm.min_free_kbytes=65536", "sysctl -w vm.min_free_kbytes=65536", false},
		{"$ cat /etc/hosts", "cat /etc/hosts", false},
		{"$ docker ps", "docker ps", false},
	} {
		cmd, prompt, ok := shellCommandLine(c.line)
		if !ok || cmd != c.cmd {
			t.Errorf("shellCommandLine(%q) = %q, %v; want %q", c.line, cmd, ok, c.cmd)
			continue
		}
		if got := domainRead(cmd, prompt); got != c.domain {
			t.Errorf("domainRead(%q) = %v, want %v", cmd, got, c.domain)
		}
	}
	for _, line := range []string{"free memory is low", "ip address of the server", "# Free memory", "tc is not installed",
		"C# and F# are languages", "The kernel prints: 12 drops"} {
		if cmd, prompt, ok := shellCommandLine(line); ok && domainRead(cmd, prompt) {
			t.Errorf("shellCommandLine(%q) = %q: a domain command", line, cmd)
		}
	}
}

// Overlapping and nested ranges count each line once; a range past the text's end counts
// its lines inside it.
func TestUnparsedCount(t *testing.T) {
	us := []model.Unparsed{{FirstLine: 10, LastLine: 12}, {FirstLine: 2, LastLine: 4}, {FirstLine: 3, LastLine: 3},
		{FirstLine: 11, LastLine: 14}, {FirstLine: 19, LastLine: 1 << 30}}
	if got := unparsedCount(us, 20); got != 3+5+2 {
		t.Errorf("unparsedCount = %d, want 10", got)
	}
	if got := unparsedCount(nil, 20); got != 0 {
		t.Errorf("unparsedCount(nil) = %d", got)
	}
}
