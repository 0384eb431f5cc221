package model

// Change is one setting to change on a host: a sysctl, an ethtool ring size, a tc rate limit,
// or advice that no command carries out ("other"). Plan computes changes, rules attach them to
// findings, tune applies them. Values are strings exactly as the kernel interface prints them
// ("4096 87380 1048576" for tcp_rmem).
type Change struct {
	Kind        string `json:"kind"`              // ChangeSysctl, ChangeEthtool, ChangeTC or ChangeOther
	Key         string `json:"key"`               // "vm.min_free_kbytes", "eth0 rx", "eth0 root htb"
	Current     string `json:"current,omitempty"` // as read now; empty when unknown
	Recommended string `json:"recommended"`
	Why         string `json:"why"`
	Rule        string `json:"rule,omitempty"` // the rule id or "plan" that asked for it
}

// Kinds of Change.
const (
	ChangeSysctl  = "sysctl"
	ChangeEthtool = "ethtool"
	ChangeTC      = "tc"
	ChangeOther   = "other"
)
