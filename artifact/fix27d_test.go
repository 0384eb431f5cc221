package artifact

import (
	"strings"
	"testing"
)

// fix27d: InnoDB's pre-5.6 buffer-pool failure ("InnoDB: Fatal error: cannot allocate memory
// for the buffer pool", buf0buf.c) is the program's own allocation refused, named as such and
// never a kernel OOM; a sentence that only talks about the error stays prose.
func TestFix27dInnoDBOldBufferPool(t *testing.T) {
	h12aNamed(t, "141130 02:12:13 InnoDB: Fatal error: cannot allocate memory for the buffer pool\n",
		map[int]string{1: "InnoDB (MySQL 5.5"})
	h12aNamed(t, "Fatal error: cannot allocate memory for the buffer pool\n",
		map[int]string{1: "buf0buf.c"})
	// Another program's line with the same first words is not InnoDB's.
	tl := ParseString("Fatal error: cannot allocate memory for the render cache\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "InnoDB") {
			t.Errorf("another program's line named as InnoDB's: %+v", u)
		}
	}
}

// fix27d: a command line whose value is a template ("sysctl -w KEY=VALUE", "echo <bytes> >
// /proc/sys/...") names the key with no value; a real value, or a word that is no field's
// name (a misspelt number), is still the value written.
func TestFix27dCommandTemplateValue(t *testing.T) {
	for _, tc := range []struct{ line, key, want string }{
		{"・ # sysctl -w net.ipv4.tcp_max_orphans=VALUE", "net.ipv4.tcp_max_orphans", ""},
		{"# echo <bytes> > /proc/sys/net/core/rmem_max", "net.core.rmem_max", ""},
		{"# sysctl -w net.ipv4.tcp_max_orphans=262144", "net.ipv4.tcp_max_orphans", "262144"},
		{"# sysctl -w net.ipv4.tcp_max_orphans=auto", "net.ipv4.tcp_max_orphans", "auto"},
		{"# echo 65536 > /proc/sys/net/netfilter/nf_conntrack_max", "net.netfilter.nf_conntrack_max", "65536"},
	} {
		tl := ParseString(tc.line+"\n", "t", Options{})
		found := false
		for _, s := range tl.Settings {
			if s.Key == tc.key {
				found = true
				if s.Value != tc.want {
					t.Errorf("%q: %s = %q, want %q", tc.line, s.Key, s.Value, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("%q: key %s not named; settings %+v", tc.line, tc.key, tl.Settings)
		}
	}
}

// fix27d: a Japanese guide introduces a message as what one can see (jaExampleLeadIn, no
// colon): its lines are an example, not this host's log. The same message after a lead-in
// in the past or present of the author's machine, or after no lead-in, is the host's.
func TestFix27dJapaneseExampleLeadIn(t *testing.T) {
	msgs := "ip_conntrack: maximum limit of 65536 entries exceeded\nnf_conntrack: table full, dropping packet.\n"
	for _, tc := range []struct {
		name, lead string
		example    bool
	}{
		{"guide potential", "実際に溢れが発生したときは、/var/log/messages や dmesg で以下のようなメッセージを確認できる", true},
		{"guide may happen", "負荷が高いと、次のようなログが出力されることがあります", true},
		{"own past", "dmesg を確認したところ、以下のようなメッセージが出ていました", false},
		{"asker present", "サーバーで以下のようなエラーが出ます", false},
		{"own progressive", "以下のようなメッセージが大量に出ています。確認できる範囲で調べました", false},
		{"no lead-in", "サーバーの dmesg", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := ParseString("nf_conntrack のメモ\n"+tc.lead+"\n"+msgs, "t", Options{})
			if got := tl.Log.Len() == 0; got != tc.example {
				t.Errorf("lead %q: log lines %d, want example=%v", tc.lead, tl.Log.Len(), tc.example)
			}
		})
	}
}

// fix27d: the same lead-in over stamped syslog lines (a record a machine wrote, pasted) is
// still read as the host's log.
func TestFix27dJapaneseLeadInStampedKept(t *testing.T) {
	tl := ParseString("Linux カーネルは、次のような警告メッセージをログに記録することがあります:\n"+
		"Mar 7 09:17:14 hostname kernel: TCP: Possible SYN flooding on port 26450. Sending cookies.\n", "t", Options{})
	if tl.Log.Len() == 0 {
		t.Errorf("stamped syslog line after a Japanese lead-in not read as the host's")
	}
}

// fix27d: an explainer titled with the quoted message, whose body says when the kernel
// prints it, logs nothing; a question titled the same with no definition, the message
// unquoted (a paste), or a definition with the message not the page's title, is still read.
func TestFix27dExplainerTitle(t *testing.T) {
	msg := "\"TCP: too many of orphaned sockets\""
	for _, tc := range []struct {
		name, text string
		read       bool
	}{
		{"ja explainer", msg + "\n\n説明\n\nソケットのクローズ処理時に、orphan 状態のソケットが多いことを検出した際に出力されるメッセージ。\n", false},
		{"en explainer", msg + "\n\nThis message is printed when the kernel finds too many orphans.\n", false},
		{"question", msg + "\n\ndmesg にこのメッセージが大量に出ています。どうすればよいですか?\n", true},
		{"unquoted paste", "TCP: too many of orphaned sockets\n\nThis message is printed when the kernel finds too many orphans.\n", true},
		{"not the title", "うちのサーバーの dmesg:\n" + msg + "\nThis message is printed when the kernel finds too many orphans.\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := ParseString(tc.text, "t", Options{})
			if got := tl.Log.Len() > 0; got != tc.read {
				t.Errorf("read as a log line %v, want %v", got, tc.read)
			}
		})
	}
}
