package tune

import (
	"errors"
	"fmt"
	"headroom/kernel"
	"sort"
	"strings"
)

// GlobalKeyError refuses keys that cannot be set inside a network namespace.
type GlobalKeyError struct {
	Netns string
	Keys  []kernel.ScopeInfo
}

func (e *GlobalKeyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to apply in network namespace %q: ", e.Netns)
	names := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		names[i] = k.Key
	}
	fmt.Fprintf(&b, "%s %s global, not per-namespace: ", strings.Join(names, ", "), map[bool]string{true: "is", false: "are"}[len(names) == 1])
	b.WriteString("setting them would change the whole host (or fail); apply them without --netns")
	for _, k := range e.Keys {
		fmt.Fprintf(&b, "\n  %s: %s", k.Key, k.History)
	}
	return b.String()
}

// checkNetnsScope finds the keys that must not be set inside namespace name: global keys of
// the table, and unknown net.* keys that the namespace does not show, or shows read-only.
func checkNetnsScope(name string, fs SysctlFS, keys []string) error {
	var global []kernel.ScopeInfo
	for _, k := range keys {
		info := kernel.LookupSysctlScope(k)
		switch info.Scope {
		case kernel.ScopeGlobal:
			global = append(global, info)
		case kernel.ScopeUnknown:
			if _, err := fs.Read(k); err != nil {
				var se *SysctlError
				if errors.As(err, &se) && se.Op == "open" {
					info.History = "absent inside the namespace: global on this kernel"
					global = append(global, info)
				}
				continue
			}
			if wc, ok := fs.(writableChecker); ok {
				if w, err := wc.Writable(k); err == nil && !w {
					info.History = "read-only inside the namespace: a global value the namespace may only read"
					global = append(global, info)
				}
			}
		}
	}
	if len(global) == 0 {
		return nil
	}
	sort.Slice(global, func(i, j int) bool { return global[i].Key < global[j].Key })
	return &GlobalKeyError{Netns: name, Keys: global}
}
