package kernel

// Total returns the sum over CPUs of the named source ("TLB") and whether it is present.
func (in *Interrupts) Total(name string) (int64, bool) {
	for i := range in.Lines {
		if in.Lines[i].Name == name {
			return in.Lines[i].Total, true
		}
	}
	return 0, false
}
