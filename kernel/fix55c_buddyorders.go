package kernel

// MaxBuddyInfoOrders bounds the counts a /proc/buddyinfo row can hold: one per order,
// NR_PAGE_ORDERS (MAX_ORDER before 6.4). The row prints as many as the kernel was built
// with: 11 on x86 and most configs, 12 with some vendor builds, 14 on arm64 with 64 KiB
// pages (ARCH_FORCE_MAX_ORDER 13), 13-14 on powerpc and sparc64 with large pages, up to 17
// on ia64 (ARCH_FORCE_MAX_ORDER "range 11 17"). A row with more numbers than this is some
// other table with a "Node N, zone NAME" prefix, not a buddy list (fix55c).
const MaxBuddyInfoOrders = 20
