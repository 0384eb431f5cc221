// Package lab is headroom's network-namespace lab: named scenarios (a topology, a workload,
// settings sets, and the failure they provoke), the A/B runner that applies each settings set
// and measures the real kernel, failure runs that check what `headroom doctor` says about
// them, the recovery measurement, and the tables they print. The namespaces, links, shaping,
// delay line, cgroups, sysctl journal and the measurements of the kernel are the substrate,
// package netlab; this package holds what is about scenarios.
package lab
