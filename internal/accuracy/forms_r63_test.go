package main

// Round 63: losses under a form that are limits of the form, each with its reason.
func init() {
	for _, p := range []struct{ key, why string }{
		{"flattened 6514-cgroups-2020-premont-5.9.9-64gb-memory-low-thrashing-two-snapshots-psi-system-full-27-websrv-some-89-events-low-5399469-reclaimable-inode-slab-30g", limitFlattenedBlock},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
