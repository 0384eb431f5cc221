package source

import (
	"fmt"
	"sort"
	"strings"

	"headroom/artifact"
	"headroom/kernel"
	"headroom/model"
)

// sysctlConfFiles lists the persistent sysctl settings of root in the order systemd-sysctl
// reads the directories it has in /etc (sysctl.d(5)): /etc/sysctl.d/*.conf by name, then
// /etc/sysctl.conf. /usr/lib and /run are left out: they hold the distribution's defaults,
// which match the running values.
func sysctlConfFiles(root kernel.Root) []string {
	var files []string
	if ents, err := root.ReadDir("etc/sysctl.d"); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".conf") {
				files = append(files, "etc/sysctl.d/"+e.Name())
			}
		}
		sort.Strings(files)
	}
	return append(files, "etc/sysctl.conf")
}

// readSysctlConf returns the settings the host's sysctl.d files name, so rules check them
// like a pasted sysctl.conf: a key the kernel does not have (`vm.min_kbytes_free`) never took
// effect, and an out-of-range value was refused at boot.
func readSysctlConf(root kernel.Root) []model.SettingMention {
	var out []model.SettingMention
	for _, name := range sysctlConfFiles(root) {
		b, err := root.ReadFile(name)
		if err != nil {
			continue
		}
		for _, m := range artifact.ParseSettings(string(b)) {
			m.Form = "sysctl.conf"
			m.Source = fmt.Sprintf("/%s line %d", name, m.Line)
			out = append(out, m)
		}
	}
	return out
}
