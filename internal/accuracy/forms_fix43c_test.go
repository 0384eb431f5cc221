package main

// fix43c: losses of round 38's g169 cases under a form that are limits of the form.
func init() {
	// inxi's "Swap:" and "Mem:" lines joined onto one line with the post: each reader needs
	// the section's label at the line's start, as inxi prints it.
	formsKnownLimits["flattened 3663-appwrite-2950-2022-inxi-swap-512-of-512-mib-mem-96pct"] = limitFlattenedBlock
	// The statement that the memory was paged out is the text's last line: cutting it cuts
	// the case's only evidence.
	formsKnownLimits["cut-last-line 3676-deskcommcrm-1173-2026-docker-vm-3584mib-four-supabase-stacks-paging"] = "the case's only evidence (the process's memory 'paginada para fora') is the text's last line, which the form cuts"
}
