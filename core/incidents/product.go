package incidents

// RecordsProduct reports whether a list that records products for a
// vendor records the affected product of an incident: a product's name
// and the affected product, folded (FoldName), are equal, or one holds the
// other as whole words ("Connect Secure" and "Ivanti Connect Secure").
// An empty affected product is recorded by no list.
func RecordsProduct(products []string, affected string) bool {
	a := FoldName(affected)
	if a == "" {
		return false
	}
	for _, p := range products {
		f := FoldName(p)
		if f != "" && (f == a || containsWords(f, a) || containsWords(a, f)) {
			return true
		}
	}
	return false
}
