package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A Chinese sentence in the voice of a reference page states how the kernel behaves in
// general, as genericStatement's English ones do: "当系统内存资源紧张到无法为新的内存分配请求
// 提供足够的空间时，OOM Killer会被触发，依据一定的规则杀掉一些进程来释放内存" (when memory is
// so tight that no request can be served, the OOM killer is triggered and kills some
// processes by its rules). Its marks: a condition "当……时" on memory running short, or
// "每当"/"一旦" (when, whenever, once), the word 机制 (mechanism), or the victim chosen "by a rule" (依据/根据/按照 ……
// 规则/算法/分数). A host's event keeps a first person (我, 我们), a finding (发现, 排查: "了解后，发现是linux
// OOM-killer机制导致的"), a time ("昨天", "刚才"), or
// the kill in the past (杀死了, 被杀了): "我们的服务昨天因为 OOM 导致被杀"; "偶爾,OOM-killer 會殺死一些程序" (occasionally, on the
// author's host) and "当mem usage达到1.5GIB左右时候 程序会被oom" (a figure of his own, no
// shortage in general) have none of the marks.
var (
	reGenericCJK = lazyre.New(`(?:当|當)[^。！？；]{0,40}?(?:内存|內存|記憶體)[^。！？；]{0,20}?(?:耗尽|耗盡|不足|紧张|緊張|不够|不夠|用完|用尽|用盡)[^。！？；]{0,40}?(?:时|時)|每当|每當|一旦|机制|機制|(?:依据|根据|按照|依據|根據)[^。！？；，,]{0,12}(?:规则|規則|算法|分数|分數|评分|score)`)
	reEventCJK   = lazyre.New(`我|咱|发现|發現|原来|原來|排查|昨天|今天|前天|昨晚|刚才|剛才|上周|曾经|曾經|已经|已經|[杀殺掉死发發]了|过了|過了`)
)

// genericCJK reports whether the Chinese sentence holding match (cut at 。！？, which
// sentenceAround does not end a sentence at) states a general behaviour.
func genericCJK(sentence, match string) bool {
	i := strings.Index(sentence, match)
	if i < 0 {
		return false
	}
	s, e := 0, i+len(match)
	if k := strings.LastIndexAny(sentence[:i], "。！？"); k >= 0 {
		s = k
	}
	if k := strings.IndexAny(sentence[e:], "。！？"); k >= 0 {
		e += k
	} else {
		e = len(sentence)
	}
	cjk := sentence[s:e]
	return reGenericCJK.MatchString(cjk) && !reEventCJK.MatchString(cjk)
}
