// Package convert holds the conversion the store adapters and the API both
// make between the core's types and their own stored or wire types.
package convert

// Slice converts each element of in with f. A nil slice stays nil, so a
// list the core never had is written as null, as it was when the core's
// own types were written directly; an empty one stays empty.
func Slice[T, R any](in []T, f func(T) R) []R {
	if in == nil {
		return nil
	}
	out := make([]R, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
