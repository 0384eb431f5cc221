package artifact

import "testing"

// fix28c: round 23's g106/g107 cases 2410, 2427, 2431, 2433, 2436. Lines from the cases
// themselves and counter-cases that must not be read as the class.
func TestFix28cClasses(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // "" for a counter-case
	}{
		{"open files                      (-n) 1048500", whyUlimitRow},
		{"max locked memory       (kbytes, -l) unlimited", whyUlimitRow},
		{"max user processes              (-u) unlimited", whyUlimitRow},
		{"virtual memory          (kbytes, -v) unlimited", whyUlimitRow},
		{"pipe size            (512 bytes, -p) 8", whyUlimitRow},
		{"DEBU[2020-04-23T02:33:53Z] c/upf/lib/utlt/src/utlt_socket.c:89 SockNodeListAdd() Pool alloc successful, total capacity[512], available[511]  UPF=Util", whyOwnPoolCounters},
		{"TRAC[2020-04-23T02:33:53Z] c/upf/lib/utlt/src/utlt_buff.c:98 SelectBufblkOption() Buffer Alloc Size[256]  UPF=Util", whyOwnPoolCounters},
		{"09/23 20:58:20.919: [mme] INFO: [Added] Number of eNB-UEs is now 76 (../src/mme/mme-context.c:3326)", whyContextCount},
		{"09/23 20:58:21.249: [app] INFO: SIGTERM received (../src/main.c:72)", whyContextCount},
		// counter-cases: the words in a sentence, another form of the same figures
		{"max locked memory is unlimited (kbytes) on this host", ""},
		{"I set open files (ulimit -n) to 1048500", ""},
		{"1048500", ""},
		{"The pool has capacity 512 and 511 are available.", ""},
		{"capacity[N] and available[N] are printed on each alloc", ""},
		{"the number of UEs is now 76 in our lab", ""},
		{"09/23 20:58:20.919: [mme] INFO: is the Number of eNB-UEs is now 76 right?", ""},
		{"Why was SIGTERM received by mmed?", ""},
	} {
		got, ok := programCountsUnread(c.line)
		if ok != (c.want != "") || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.line, got, ok, c.want)
		}
	}
}

// A paste of only such lines is evidence (listed unread, nothing diagnosed); with another
// reader's output beside it, statedFiguresUnread leaves it as it was.
func TestFix28cPasteListedUnread(t *testing.T) {
	for _, text := range []string{
		"[root@h ~]# ulimit -a\ncore file size          (blocks, -c) unlimited\nopen files                      (-n) 1048500\nmax locked memory       (kbytes, -l) unlimited\n",
		"DEBU[2020-04-23T02:33:53Z] c/upf/lib/utlt/src/utlt_socket.c:89 SockNodeListAdd() Pool alloc successful, total capacity[512], available[511]  UPF=Util\n",
		"```\n09/23 20:58:20.919: [mme] INFO: [Added] Number of eNB-UEs is now 76 (../src/mme/mme-context.c:3326)\n09/23 20:58:21.249: [app] INFO: SIGTERM received (../src/main.c:72)\n```\n",
		// bash's job notice under a wrapper's stamp: the script path parsed as a syslog tag
		"2018-02-14 20:20:24: [ragnarok] /usr/local/bin/arkmanager: line 1096: 13821 Killed                  \"$arkserverroot/$arkserverexec\"\n",
	} {
		tl := ParseString(text, "t.txt", Options{})
		if len(tl.Unparsed) == 0 {
			t.Errorf("nothing listed unread for %q", text)
		}
	}
	// counter-case: the stamped line is another program's, not bash's notice
	tl := ParseString("2018-02-14 20:20:24: [ragnarok] /usr/local/bin/arkmanager: line 1096: server restarted\n", "t.txt", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("listed unread: %+v", tl.Unparsed)
	}
}

// A sysctl -w value that runs into the next sentence: the number before the full stop.
func TestFix28cRunOnValue(t *testing.T) {
	for in, want := range map[string]string{
		"24266666.Then": "24266666",
		"1.5":           "1.5",
		"1.0e3":         "1.0e3",
		"4096.":         "4096.",
		"eth0.Vlan":     "eth0.Vlan",
		"24266666.T":    "24266666.T",
		"24266666.THEN": "24266666.THEN",
	} {
		if got := cutRunOnSentence(in); got != want {
			t.Errorf("cutRunOnSentence(%q) = %q, want %q", in, got, want)
		}
	}
	tl := ParseString("I try to run sudo sysctl -w net.core.wmem_max=24266666.Then execute the sudo uhd_usrp_probe command.\n", "t.txt", Options{})
	found := false
	for _, s := range tl.Settings {
		if s.Key == "net.core.wmem_max" {
			found = true
			if s.Value != "24266666" {
				t.Errorf("value %q, want 24266666", s.Value)
			}
		}
	}
	if !found {
		t.Errorf("no net.core.wmem_max setting: %+v", tl.Settings)
	}
	// counter-case: a quoted value is the value as written
	tl = ParseString("sudo sysctl -w net.core.wmem_max='24266666.Then'\n", "t.txt", Options{})
	for _, s := range tl.Settings {
		if s.Key == "net.core.wmem_max" && s.Value == "24266666" {
			t.Errorf("quoted value cut: %q", s.Value)
		}
	}
}
