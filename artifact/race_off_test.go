//go:build !race

package artifact

// raceBuild: see race_on_test.go.
const raceBuild = false
