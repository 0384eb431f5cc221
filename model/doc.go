// Package model holds what every input becomes: a Sample (raw values at one instant; absent
// is not zero), a Timeline (samples in order, derived rates between them, and events such as
// allocation failures), host facts, and the Change type that plan, diagnose and tune share.
// It does no I/O.
package model
