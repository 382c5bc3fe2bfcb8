package contracts

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/vetted-dev/vetted/core"
)

// Derived fields of the answer: a merge patch may carry them (a client
// sends back what GET returned) and they are ignored.
var derivedFields = []string{"id", "vendor_name", "notice_deadline", "state", "documents", "created_at", "updated_at"}

// Apply applies a JSON merge patch (RFC 7396) to a contract as GET shows it
// on today and returns the new terms. Keys are the wire names of Input; a
// derived field is ignored; any other key is refused, naming it. null
// clears a field (to its zero: false, 0, "", none). The patch is applied
// to the current period's dates (what GET shows): when start_date and
// end_date come out as that period, the stored dates are kept, so sending
// back an auto-renewed contract as read changes nothing.
func Apply(c Contract, today time.Time, patch map[string]json.RawMessage) (Terms, error) {
	d := c.Derive(today)
	shown := c.Terms
	shown.Start, shown.End = d.Start, d.End
	base, err := json.Marshal(shown.Input())
	if err != nil {
		return Terms{}, err
	}
	doc := map[string]json.RawMessage{}
	if err := json.Unmarshal(base, &doc); err != nil {
		return Terms{}, err
	}
	var errs core.Fields
	for k, v := range patch {
		switch {
		case slices.Contains(derivedFields, k):
		case doc[k] == nil:
			errs.Add("Patch."+k, "is not a field of a contract")
		case string(v) == "null":
			delete(doc, k)
		default:
			doc[k] = v
		}
	}
	if err := errs.Err(); err != nil {
		return Terms{}, err
	}
	merged, err := json.Marshal(doc)
	if err != nil {
		return Terms{}, err
	}
	var in Input
	if err := Decode(merged, &in); err != nil {
		return Terms{}, err
	}
	t, err := in.Check()
	if err != nil {
		return Terms{}, err
	}
	if t.Start.Equal(d.Start) && t.End.Equal(d.End) {
		t.Start, t.End = c.Start, c.End
	}
	return t, nil
}

// Decode reads an Input from JSON; a value of the wrong type is
// core.ErrInvalid naming its field.
func Decode(b []byte, in *Input) error {
	err := json.Unmarshal(b, in)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		return core.Invalid(te.Field, "must be a JSON %s", jsonKind(te.Type.Kind().String()))
	}
	if _, ok := core.AsError(err); ok {
		return err
	}
	return core.Invalid("Contract", "is not a JSON object: %v", err)
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int", "int64":
		return "integer"
	case "slice":
		return "array"
	}
	return "object"
}
