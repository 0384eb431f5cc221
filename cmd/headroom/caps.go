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
// serve --trace keeps CAP_SYSLOG alone too. Of a traced window, only mount(2) of tracefs
// needs CAP_SYS_ADMIN; serve mounts it (when it is mounted nowhere) before the drop,
// detaches the mount at once and hands its open root to the re-executed serve
// (source.MountTraceFS, serveTraceFS). The rest is allowed to uid 0 by the files' modes,
// which serve keeps: creating and removing the instance, enabling its events, reading its
// per-CPU buffers and stats, restoring (and the guard's restore after a SIGKILL) — measured
// under setpriv with CapEff 0x400000000, and by TestLabServeTraceCaps. CAP_SYSLOG also names
// the drop locations: /proc/kallsyms shows addresses to an opener with it when
// kptr_restrict is 1, or 0 with perf_event_paranoid above 1 (kernel/kallsyms.c
// kallsyms_show_value), as on this host (0 and 2).
//
// How they are dropped is internal/privdrop's.
var serveKeepCaps = []int{unix.CAP_SYSLOG}

// dropPrivileges is false in the tests, which run serve inside the test process.
var dropPrivileges = true
