package artifact

import "testing"

// Redis's overcommit warning wrapped at 72 columns by a mail client (corpus 1526 under the
// wrap-prose forms): its quoted command breaks after "sysctl", and the next line starts
// "vm.overcommit_memory=1' for this to take effect." That is the tail of a sentence, not a
// sysctl.conf line whose value is "1' for this to take effect." (which the range check then
// called refused). Counter-cases: a value's quotes in pairs, and a bare value, stay settings.
func TestSysctlLineNotFromWrappedProse(t *testing.T) {
	text := "# WARNING overcommit_memory is set to 0! Background save may fail under\n" +
		"low memory condition. To fix this issue add 'vm.overcommit_memory = 1'\n" +
		"to /etc/sysctl.conf and then reboot or run the command 'sysctl\n" +
		"vm.overcommit_memory=1' for this to take effect.\n"
	tl := ParseString(text, "t", Options{})
	for _, s := range tl.Settings {
		if s.Value != "" && s.Value[0] == '1' && len(s.Value) > 1 {
			t.Errorf("setting %s = %q read from a sentence's tail", s.Key, s.Value)
		}
	}
	for _, c := range []struct{ line, key, value string }{
		{"net.ipv4.tcp_rmem = \"4096 87380 4194304\"\n", "net.ipv4.tcp_rmem", "\"4096 87380 4194304\""},
		{"vm.overcommit_memory = 1\n", "vm.overcommit_memory", "1"},
		{"vm.overcommit_memory='1'\n", "vm.overcommit_memory", "'1'"},
	} {
		tl := ParseString(c.line, "t", Options{})
		if len(tl.Settings) != 1 || tl.Settings[0].Key != c.key || tl.Settings[0].Value != c.value {
			t.Errorf("%q: settings %+v, want %s = %s", c.line, tl.Settings, c.key, c.value)
		}
	}
}
