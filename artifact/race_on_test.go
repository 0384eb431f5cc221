//go:build race

package artifact

// raceBuild: the race detector's sync.Pool drops a random share of what is put back
// (sync/pool.go), so a regexp's machines are allocated again now and then and heap
// allocation counts vary from run to run (TestParseBudget).
const raceBuild = true
