package artifact

import "testing"

// A command and its output on separate lines give the host's value.
func TestCommandThenValue(t *testing.T) {
	text := "# cat /proc/sys/net/ipv4/tcp_max_orphans\n65536\n" +
		"root@nas:~# cat /proc/sys/vm/min_free_kbytes\n2000\n" +
		"$ sysctl -n net.ipv4.tcp_mem\n188124\t250833\t376248\n" +
		"/proc/sys/net/core/netdev_max_backlog:1000\n" +
		"$ sysctl net.core.rmem_max\nnet.core.rmem_max = 212992\n"
	tl := ParseString(text, "t", Options{})
	want := map[string]string{"net.ipv4.tcp_max_orphans": "65536", "vm.min_free_kbytes": "2000",
		"net.ipv4.tcp_mem": "188124 250833 376248", "net.core.netdev_max_backlog": "1000", "net.core.rmem_max": "212992"}
	for k, v := range want {
		if got := tl.Host.Sysctls[k]; got != v {
			t.Errorf("%s = %q, want %q (host sysctls %v)", k, got, v, tl.Host.Sysctls)
		}
	}
	// A value line must look like one: prose after a command is not its output.
	tl = ParseString("# cat /proc/sys/vm/min_free_kbytes\nthen I raised it to 20000 and it worked\n", "t", Options{})
	if _, ok := tl.Host.Sysctls["vm.min_free_kbytes"]; ok {
		t.Errorf("prose taken as the command's output: %v", tl.Host.Sysctls)
	}
}
