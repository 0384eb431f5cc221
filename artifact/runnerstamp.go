package artifact

// A CI runner's raw log (fix49e, corpus 4109): the GitHub Actions runner (and Azure
// Pipelines' agent, the same .NET worker) writes every line of a step's output behind the
// time it received it, DateTime's round-trip format in UTC, "2021-03-23T09:39:07.5366581Z "
// (seven digits of fraction and a 'Z', Runner.Worker's pagingLogger/JobServerQueue). The
// stamp is the runner's, not the program's: the line after it is what the step's program
// printed, a container's log line, a kernel record or a test's output, and it is read as a
// line of its own. Before, the syslog splitter took the program's first word for a host and
// its next for a tag ("ARTEMIS2021-03-23" and "09"), and a broker's own line under it was
// no reader's (exit 3). The runner's own workflow commands ("##[error]Process completed
// with exit code 137.") keep their stamp (stripSyslog leaves them whole; buildKilledLine
// reads them). Docker's and the CRI's stamps have nine digits, rsyslog's six and a zone
// offset, dmesg --time-format iso a comma: none is taken here.

// stripRunnerStamp returns s without a runner's stamp and the blank after it.
func stripRunnerStamp(s string) (string, bool) {
	const n = len("2021-03-23T09:39:07.5366581Z")
	if len(s) <= n+1 || s[n] != ' ' || s[n-1] != 'Z' || s[19] != '.' {
		return s, false
	}
	if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return s, false
	}
	if !isDigits(s[:4]) || !isDigits(s[5:7]) || !isDigits(s[8:10]) || !isDigits(s[11:13]) ||
		!isDigits(s[14:16]) || !isDigits(s[17:19]) || !isDigits(s[20:n-1]) {
		return s, false
	}
	rest := s[n+1:]
	if len(rest) >= 3 && rest[:3] == "##[" {
		return s, false
	}
	return rest, true
}
