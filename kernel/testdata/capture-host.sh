#!/bin/sh
# Capture this host's /proc text files read by package kernel into a txtar archive on
# stdout, for use as a fixture (kernel.TxtarRoot). Run as root (pagetypeinfo is 0400 since
# 5.4). Usage: sh capture-host.sh > host-$(uname -r | cut -d- -f1)-$(uname -m).txtar
set -eu
echo "Captured from a live host with kernel/testdata/capture-host.sh on $(date -u +%Y-%m-%d)."
echo "uname -srm: $(uname -srm); $(nproc) CPUs."
echo "Real kernel output, unedited. Kernel threads: kswapd*, kcompactd*, ksoftirqd/*,"
echo "plus PID 2 (kthreadd) and the capturing shell as non-matches."
emit() { # emit NAME: one txtar member from /NAME, skipped when absent or unreadable
	if [ -r "/$1" ] && cat "/$1" > /tmp/capture.$$ 2>/dev/null; then
		echo "-- $1 --"
		cat /tmp/capture.$$
		# txtar members must end in a newline
		[ -z "$(tail -c1 /tmp/capture.$$)" ] || echo
	fi
}
for f in meminfo vmstat buddyinfo zoneinfo pagetypeinfo stat interrupts loadavg \
	net/dev net/netstat net/snmp net/snmp6 net/sockstat net/sockstat6 net/protocols \
	net/softnet_stat pressure/cpu pressure/memory pressure/io pressure/irq; do
	emit "proc/$f"
done
for p in 2 $$; do emit "proc/$p/stat"; done
for d in /proc/[0-9]*; do
	c=$(cat "$d/comm" 2>/dev/null || true)
	case "$c" in kswapd*|kcompactd*|ksoftirqd/*) emit "${d#/}/stat" ;; esac
done
for k in vm/min_free_kbytes vm/watermark_scale_factor vm/watermark_boost_factor \
	vm/lowmem_reserve_ratio vm/zone_reclaim_mode vm/compaction_proactiveness \
	vm/extfrag_threshold vm/swappiness vm/vfs_cache_pressure vm/dirty_ratio \
	vm/dirty_background_ratio vm/overcommit_memory vm/overcommit_ratio vm/overcommit_kbytes \
	net/ipv4/tcp_mem net/ipv4/tcp_rmem net/ipv4/tcp_wmem net/ipv4/tcp_adv_win_scale \
	net/ipv4/tcp_moderate_rcvbuf net/ipv4/tcp_window_scaling net/ipv4/tcp_notsent_lowat \
	net/ipv4/tcp_congestion_control net/ipv4/tcp_available_congestion_control \
	net/ipv4/tcp_max_orphans net/ipv4/tcp_orphan_retries net/ipv4/tcp_fin_timeout \
	net/ipv4/tcp_max_tw_buckets net/ipv4/tcp_rto_max_ms net/ipv4/tcp_max_syn_backlog \
	net/core/somaxconn net/ipv4/udp_mem net/ipv4/udp_rmem_min net/ipv4/udp_wmem_min \
	net/core/rmem_max net/core/wmem_max net/core/rmem_default net/core/wmem_default \
	net/core/optmem_max net/core/netdev_max_backlog net/core/netdev_budget \
	net/core/netdev_budget_usecs net/core/dev_weight net/core/rps_sock_flow_entries \
	net/core/default_qdisc net/netfilter/nf_conntrack_max net/netfilter/nf_conntrack_count \
	kernel/osrelease kernel/hostname; do
	emit "proc/sys/$k"
done
rm -f /tmp/capture.$$
