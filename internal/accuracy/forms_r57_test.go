package main

// Round 57: losses under a form that are limits of the form, each with its reason
// (limitFlattenedBlock is forms_test.go's).
func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 5353-github-ma-xd-os-lite-ru-lab5-report-3924mib-vm-swap-1710-full-bash-global-oom-killed-x3-rewrapped-fields-kswapd0-94pct-top-comma-decimals", limitFlattenedBlock},
		{"flattened 5359-github-e1turin-itmo-os-ru-lab5-stress-ng-report-multipass-2gb-sar-r-kbcommit-table-pipeherd-8-478pct-commit-dccp-lo-mbit-table-perf-cycles", limitFlattenedBlock},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
