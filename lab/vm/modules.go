package vm

import (
	"bufio"
	"bytes"
	"debug/elf"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Kernel modules come from the unpacked image package, which has no modules.dep (depmod
// runs at installation, and the lab never installs). A module's dependencies are in its own
// ".modinfo" section, "depends=a,b" (written by scripts/mod/modpost.c add_depends), which
// is what depmod reads too; the guest's /init loads the list in order with busybox insmod.

// moduleIndex maps module names ("virtio_net": '-' read as '_', as the kernel does in
// module names) to paths under dir (lib/modules/<release>), and knows the built-in ones.
type moduleIndex struct {
	dir     string
	files   map[string]string
	builtin map[string]bool
}

func modName(file string) string {
	b := filepath.Base(file)
	for _, ext := range []string{".ko.xz", ".ko.zst", ".ko.gz", ".ko"} {
		if s, ok := strings.CutSuffix(b, ext); ok {
			b = s
			break
		}
	}
	return strings.ReplaceAll(b, "-", "_")
}

func loadModuleIndex(dir string) (*moduleIndex, error) {
	ix := &moduleIndex{dir: dir, files: map[string]string{}, builtin: map[string]bool{}}
	err := filepath.WalkDir(filepath.Join(dir, "kernel"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.Contains(d.Name(), ".ko") {
			rel, _ := filepath.Rel(dir, p)
			ix.files[modName(p)] = rel
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("vm: modules of %s: %w", dir, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "modules.builtin")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" {
				ix.builtin[modName(l)] = true
			}
		}
	}
	return ix, nil
}

// resolve returns the module files (relative to ix.dir) that loading names needs, each
// after its dependencies. A built-in module is satisfied without a file; a name that is
// neither is an error.
func (ix *moduleIndex) resolve(names []string) ([]string, error) {
	var out []string
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(n string, chain []string) error
	visit = func(n string, chain []string) error {
		n = strings.ReplaceAll(n, "-", "_")
		switch state[n] {
		case 1:
			return fmt.Errorf("vm: module dependency cycle %s", strings.Join(append(chain, n), " -> "))
		case 2:
			return nil
		}
		rel, ok := ix.files[n]
		if !ok {
			if ix.builtin[n] {
				state[n] = 2
				return nil
			}
			return fmt.Errorf("vm: module %s is neither built in nor under %s (needed by %s)", n, ix.dir, strings.Join(append(chain, n), " -> "))
		}
		state[n] = 1
		deps, err := moduleDepends(filepath.Join(ix.dir, rel))
		if err != nil {
			return err
		}
		for _, d := range deps {
			if err := visit(d, append(chain, n)); err != nil {
				return err
			}
		}
		state[n] = 2
		out = append(out, rel)
		return nil
	}
	for _, n := range names {
		if err := visit(n, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// moduleDepends reads "depends=" from the .modinfo section of an uncompressed module.
func moduleDepends(file string) ([]string, error) {
	if !strings.HasSuffix(file, ".ko") {
		return nil, fmt.Errorf("vm: %s: compressed modules are not supported (Debian 6.1 ships .ko)", file)
	}
	f, err := elf.Open(file)
	if err != nil {
		return nil, fmt.Errorf("vm: module %s: %w", file, err)
	}
	defer f.Close()
	sec := f.Section(".modinfo")
	if sec == nil {
		return nil, fmt.Errorf("vm: module %s has no .modinfo section", file)
	}
	b, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("vm: module %s: .modinfo: %w", file, err)
	}
	return parseModinfoDepends(b), nil
}

// parseModinfoDepends reads the NUL-separated key=value strings of a .modinfo section.
func parseModinfoDepends(b []byte) []string {
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte("depends=")); ok {
			var out []string
			for _, d := range strings.Split(string(v), ",") {
				if d = strings.TrimSpace(d); d != "" {
					out = append(out, d)
				}
			}
			return out
		}
	}
	return nil
}
