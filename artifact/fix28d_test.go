package artifact

import (
	"testing"

	"headroom/model"
)

// The listen-queue counters stated to grow with no figure (corpus 2383: a Red Hat KB's Issue,
// "/proc/net/netstatのListenOverflowsやListenDropsの値が増加しています"). Before: nothing was
// read and listen-overflow was not checked. Counter-cases: a question, a check, a condition,
// a negation, a list of counters to watch, another program's queue.
func TestFix28dStatedListenRising(t *testing.T) {
	wantStated(t, model.RateStatedListenRising, []statedCase{
		{"netstat -sで確認したところ、x times the listen queue of a socket overflowedやSYNs to LISTEN sockets droppedが増加しています。\n", 1},
		{"/proc/net/netstatのListenOverflowsやListenDropsの値が増加しています。\n", 1},
		{"ピーク時に ListenOverflows が増え続けています。\n", 1},
		{"高峰期 netstat -s 里的 ListenOverflows 持续增加。\n", 1},
		{"我们发现 TcpExtListenDrops 一直在增长，客户端连接超时。\n", 1},
		{"On our proxy ListenOverflows keeps increasing during the peak.\n", 1},
		{"netstat -s shows that the times the listen queue of a socket overflowed counter is growing.\n", 1},
		{"We see a steady increase in TcpExtListenDrops on the web tier.\n", 1},
		// counter-cases
		{"Is ListenOverflows increasing on your server?\n", 0},
		{"Check whether ListenOverflows increases while the load test runs.\n", 0},
		{"ListenOverflows is not increasing after the change.\n", 0},
		{"ListenOverflowsの値は増加していません。\n", 0},
		{"ListenOverflowsが増加しているか確認してください。\n", 0},
		{"ListenDropsが増加している場合は、somaxconnを増やします。\n", 0},
		{"ListenOverflows 没有增加。\n", 0},
		{"检查 ListenOverflows 是否持续增加。\n", 0},
		{"如果 ListenDrops 持续增加，请调大 somaxconn。\n", 0},
		{"Counters to watch: ListenOverflows, ListenDrops, TCPReqQFullDrop.\n", 0},
		{"If ListenOverflows increases, raise net.core.somaxconn.\n", 0},
		{"The nginx backlog queue keeps increasing during the peak.\n", 0},
		// a Red Hat solution with its banner: the Issue lists the symptoms it resolves
		{"\"kernel: Possible SYN flooding on port X. Sending cookies\" is logged\n\nSolution Verified - Updated -\n\n  • The ListenOverflows or ListenDrops value of /proc/net/netstat is increasing\n", 0},
	})
}
