package artifact

import "headroom/internal/lazyre"

// A program's memory requirement is no host's size (fix43c, corpus 3663: the maintainer's
// "Appwrite requires at least 2GB of memory" under an inxi report of a 976 MiB VM): "requires
// at least 2GB of RAM", "needs a minimum of 4 GB memory", "the recommended 8 GB RAM",
// "minimum: 2 GB RAM". The size states what a program asks of a machine, advice for any host;
// the host's own size is elsewhere or not given. "I have at least 8 GB RAM" (no requirement
// word) stays the author's machine.
var reMemRequirementBefore = lazyre.New(`(?i)\b(?:requires?|required|requirements?|needs?|needed|recommends?|recommended|minimum|min\.|suggested)\b(?:\s+(?:is|are|of|at\s+least|a\s+minimum\s+of|about|around|roughly|approximately|:)){0,3}\s*[:~≥>=]?\s*$`)

// memRequirementBefore: the size at text[i:] is a requirement's (reMemRequirementBefore on
// the 60 bytes before it).
func memRequirementBefore(text string, i int) bool {
	return reMemRequirementBefore.MatchString(text[max(0, i-60):i])
}
