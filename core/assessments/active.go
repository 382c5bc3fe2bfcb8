package assessments

// ActiveStatuses lists the statuses for which Active is true, for stores
// that count active reviews themselves (the rule stays in Active).
func ActiveStatuses() []Status {
	var out []Status
	for _, v := range StatusValues() {
		if s := Status(v); s.Active() {
			out = append(out, s)
		}
	}
	return out
}
