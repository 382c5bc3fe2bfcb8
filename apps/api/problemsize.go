package api

import (
	"fmt"
	"reflect"
)

// The size rule of a problem answer: a refusal names where the request is
// wrong, it does not send the request back. A 422 on a list of thousands of
// bad items lists the first maxProblemDetails failures and one more entry
// saying how many it left out, and an entry repeats the value at fault only
// when that value is a short scalar (a string of at most maxEchoedValue
// bytes, a number, a boolean): never an object or an array, which huma's
// validation would otherwise echo whole (the request's whole vendors array
// with its length error, the whole body with a malformed one).
const (
	maxProblemDetails = 20
	maxEchoedValue    = 200
)

// boundDetails applies the size rule to the entries of a problem.
func boundDetails(ds []*ProblemDetail) []*ProblemDetail {
	if len(ds) > maxProblemDetails {
		more := len(ds) - maxProblemDetails
		ds = append(ds[:maxProblemDetails:maxProblemDetails], &ProblemDetail{
			Message: fmt.Sprintf("and %d more failures of the same request, not listed: fix the ones above and send it again", more)})
	}
	for _, d := range ds {
		d.Value = echoable(d.Value)
	}
	return ds
}

// echoable returns v when an answer may repeat it, else nil.
func echoable(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if len(x) > maxEchoedValue {
			return nil
		}
		return x
	case bool:
		return x
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return v
	}
	return nil
}
