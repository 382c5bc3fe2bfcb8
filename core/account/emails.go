package account

import "github.com/vetted-dev/vetted/core"

// NormalizeEmails normalizes e-mails given in field, dropping repeats and
// naming every bad one by its index.
func NormalizeEmails(field string, in []string) ([]string, error) {
	var errs core.Fields
	seen := map[string]bool{}
	out := make([]string, 0, len(in))
	for i, raw := range in {
		e, err := NormalizeEmail(raw)
		if err != nil {
			errs.AddErr(core.WithField(err, core.Index(field, i)))
			continue
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out, errs.Err()
}
