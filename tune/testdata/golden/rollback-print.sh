#!/bin/sh
# Undo of headroom tune journal entries, newest first.
set -e

# entry 2, 2026-01-02T15:04:05Z, applied, network namespace lab a
# net.ipv4.tcp_congestion_control: bbr → cubic (undoing: pacing)
ip netns exec 'lab a' sysctl -w net.ipv4.tcp_congestion_control=cubic
rm -f SYSCTLDIR/90-headroom.conf

# entry 1, 2026-01-02T15:04:05Z, applied
# net.ipv4.tcp_wmem: 4096 16384 16777216 → 4096 16384 4194304 (undoing: BDP of 1 Gbit/s × 125 ms is 15.6 MB)
sysctl -w 'net.ipv4.tcp_wmem=4096 16384 4194304'
# net.ipv4.tcp_rmem: 4096 131072 16777216 → 4096 131072 6291456 (undoing: BDP of 1 Gbit/s × 125 ms is 15.6 MB)
sysctl -w 'net.ipv4.tcp_rmem=4096 131072 6291456'
