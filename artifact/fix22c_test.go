package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix22c: the conntrack-full message quoted in a sentence that states the host's log or
// console shows it (corpus 1931: a step of a Google Code reproduction recipe, wrapped inside
// the quotation; 1932: Chinese, the console printing it unquoted with its prefix) is stated by
// the author: RateStatedConntrackFull, not a kernel-log record.
func TestFix22cConntrackMessageStated(t *testing.T) {
	recipe := "What steps will reproduce the problem?\n" +
		"1. Install bittorrent, forward ports for it. Limit misc_conntrack_x=1024\n" +
		"2. Start to seed any popular file\n" +
		"3. In system log there will be contionous \"conntrack table full, dropping \n" +
		"packet\"\n" +
		"4. system log wil consume about 300K of ram\n"
	var bulleted, indented, flat []string
	for _, l := range strings.Split(strings.TrimSuffix(recipe, "\n"), "\n") {
		bulleted = append(bulleted, "- "+l)
		indented = append(indented, "    `"+l+"`  ")
		flat = append(flat, strings.Fields(l)...)
	}
	for _, text := range []string{
		recipe,
		strings.Join(bulleted, "\n") + "\n",
		strings.Join(indented, "\n") + "\n",
		strings.Join(flat, " ") + "\n",
		"打开SSR+后，功能正常，不一定什么时间就会占满系统的连接数，可能很快。犯病时控制台持续输出nf_conntrack: table full, dropping packet。重启SSR+后症状消失。\n",
		"On the router, in the syslog there are lots of \"nf_conntrack: table full, dropping packet\" since the upgrade.\n",
		"In dmesg there were thousands of 'ip_conntrack: table full, dropping packet' lines.\n",
		"路由器的终端上持续打印“conntrack table full, dropping packet”，重启后消失。\n",
	} {
		if v := statedRate(t, text, model.RateStatedConntrackFull); v == 0 {
			t.Errorf("not stated: %q", text)
		}
		tl := ParseString(text, "t", Options{})
		if tl.Log.Len() != 0 {
			t.Errorf("%q: read as %d kernel-log records; it is stated, not logged", text, tl.Log.Len())
		}
	}
	// Counter-cases: a question about the message, a condition or a possibility, advice,
	// a negation, a prediction outside a recipe's step, the words without a log place,
	// the documentation's voice, and a recipe step that hedges.
	for _, text := range []string{
		"What does \"nf_conntrack: table full, dropping packet\" in the log mean?\n",
		"In the log there is \"nf_conntrack: table full, dropping packet\", why?\n",
		"If in the syslog there are many \"nf_conntrack: table full, dropping packet\", raise nf_conntrack_max.\n",
		"When the table overflows, in the log there will be \"nf_conntrack: table full, dropping packet\".\n",
		"In syslog there was no \"nf_conntrack: table full, dropping packet\" at all.\n",
		"Raise nf_conntrack_max until \"nf_conntrack: table full, dropping packet\" stops.\n",
		"如果控制台输出nf_conntrack: table full, dropping packet，请调大nf_conntrack_max。\n",
		"控制台可能输出nf_conntrack: table full, dropping packet。\n",
		"控制台没有输出nf_conntrack: table full, dropping packet。\n",
		"Steps to reproduce:\n1. Flood the router\n2. In the log there might be \"nf_conntrack: table full, dropping packet\"\n",
		strings.Replace(recipe, "What steps will reproduce the problem?\n", "", 1),
		"To reproduce it, flood the router and in the log there will be \"nf_conntrack: table full, dropping packet\".\n",
	} {
		if v := statedRate(t, text, model.RateStatedConntrackFull); v != 0 {
			t.Errorf("stated: %q", text)
		}
	}
}

// fix22c: VMware ESXi's vmkernel.log records and PSOD (corpus 1999) are another system's
// evidence: the text is named as ESXi's, its records listed as unread, no Linux reading.
func TestFix22cESXiOtherOS(t *testing.T) {
	const text = "Panic Message: @BlueScreen: #PF Exception 14 in world 19435391:NetWorld-VM- IP 0x4200188bcaed addr 0x270\n" +
		"0x453ab139bee0:[0x4200188bcaed]Vmxnet3VMKDev_AsyncTx@vmkernel#nover+0x1d stack: 0x430215a1b800\n\n" +
		"There are a lot of \"Admission failure\" logs in /var/run/log/vmkernel.log:\n\n" +
		"    In(182) vmkernel: cpu85:19435559)Admission failure in path: host:system:net:vmxnet3Fastslab-0x430340904fc0\n" +
		"    In(182) vmkernel: cpu85:19435559)vmxnet3Fastslab-0x430340904fc0 (162) requires 2048 KB, asked 2048 KB from host (0) which has 1609940220 KB occupied and 0 KB available.\n"
	tl := ParseString(text, "t", Options{})
	if !strings.HasPrefix(tl.Host.OtherOS, "VMware ESXi") {
		t.Fatalf("other OS %q", tl.Host.OtherOS)
	}
	if len(tl.Unparsed) == 0 || len(tl.Samples) != 0 || tl.Log.Len() != 0 {
		t.Errorf("unparsed %v, samples %d, log %d", tl.Unparsed, len(tl.Samples), tl.Log.Len())
	}
	for _, u := range tl.Unparsed {
		if u.Why != whyESXiRecord {
			t.Errorf("unread for %q", u.Why)
		}
	}
	// Counter-cases: a Linux guest's text that names ESXi or vmkernel in words, and a
	// "vmkernel: cpu" without a CPU number, are not ESXi's.
	for _, s := range []string{
		"环境：x86服务器，部署VMWare EXSI6.7 虚拟机跑软路由\n",
		"The guest runs on VMware ESXi 7.0; the vmkernel log on the host was clean.\n",
		"grep for 'vmkernel: cpu' in the host's logs\n",
	} {
		if os := esxiOS(s); os != "" {
			t.Errorf("%q named %s", s, os)
		}
	}
	// A Linux guest's own log beside an ESXi line is still Linux's.
	linux := "[ 12.345678] Linux version 5.10.0 (gcc)\n[ 100.000000] nf_conntrack: nf_conntrack: table full, dropping packet\n" +
		"In(182) vmkernel: cpu3:2100)Admission failure in path: host:system:net\n"
	if tl := ParseString(linux, "t", Options{}); tl.Host.OtherOS != "" {
		t.Errorf("Linux text named %s", tl.Host.OtherOS)
	}
}
