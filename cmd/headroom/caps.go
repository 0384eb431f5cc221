package main

import "golang.org/x/sys/unix"

// Capabilities of serve. Everything serve reads is readable by any user (docs/serve.md),
// except two things:
//
//   - /dev/kmsg when kernel.dmesg_restrict=1: devkmsg_open checks CAP_SYSLOG
//     (kernel/printk/printk.c check_syslog_permissions). Kept.
//   - /proc/pagetypeinfo (--pagetypeinfo) is mode 0400 owned by root: uid 0 reads it as
//     the file's owner, without CAP_DAC_OVERRIDE. Serve keeps uid 0, so nothing to keep.
//
// CAP_NET_ADMIN is needed by no reader: the ethtool commands serve sends (GSET, GDRVINFO,
// GRINGPARAM, GSSET_INFO, GSTRINGS, GSTATS) are on dev_ethtool's list of commands anyone
// may run (net/ethtool/ioctl.c), and sock_diag dumps are unprivileged (net/ipv4/inet_diag.c);
// TestUnprivileged in export runs them all as nobody. So serve started as root keeps
// CAP_SYSLOG alone.
//
// How they are dropped is internal/privdrop's.
var serveKeepCaps = []int{unix.CAP_SYSLOG}

// dropPrivileges is false in the tests, which run serve inside the test process.
var dropPrivileges = true
