package artifact

import "headroom/internal/lazyre"

// reCodeMeaning: a sentence whose subject is an exit code or a signal and whose verb says
// what that code means, the voice of reference pages: Kubernetes' docs on container states
// ("Exit Code 137 ... OOMKilled", kubernetes.io/docs/tasks/debug/debug-application/
// debug-running-pod), Docker's run reference ("exit code 137 = 128 + 9 (SIGKILL)",
// docs.docker.com/engine/containers/run), answers that explain "Exit code 137 means the
// container was OOMKilled" or "a SIGKILL (9) usually means the OOM killer". Such a sentence
// tells what a code means in general, not that this host's process was killed, even with
// "was" in it; a sentence that tells what happened ("the pod was OOMKilled (exit 137)",
// "it exited with code 137, which means OOM") has another subject and stays an event (h40c).
var reCodeMeaning = lazyre.New(`(?i)^[\s"'*>(-]*(?:(?:in\s+general|generally|typically|usually|normally|note|fyi|tl;?dr)\s*[,:-]?\s*)?(?:(?:an?|the)\s+)?(?:(?:container|process|pod|docker|kubernetes|k8s)(?:'s)?\s+)?(?:(?:(?:exit|return|status|error)\s*(?:code|status|value)?|code|signal|sigkill|oomkilled)\s*[:=]?\s*\(?(?:137|9|sigkill|oomkilled)\)?|oomkilled|sigkill)\s*(?:\([^)]{0,24}\)\s*)?(?:\w+\s+){0,2}?(?:means|indicates|signals|signifies|stands\s+for|is\s+(?:usually|typically|often|generally|commonly|almost\s+always)\s+(?:a\s+sign|caused|the))\b`)

// codeMeaning reports whether the sentence explains what an exit code or a signal means
// (reCodeMeaning), without a first person telling what happened to the writer's process.
func codeMeaning(sentence string) bool {
	return reCodeMeaning.MatchString(sentence) && !reFirstPerson.MatchString(sentence)
}
