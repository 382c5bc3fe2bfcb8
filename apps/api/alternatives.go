package api

import (
	"slices"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/validation"
)

// The alternatives rule: a value of the body that may take one of several
// forms (a oneOf of the schema: users[] as an e-mail string or an
// {email, role} object, vendors[] as a name or a {vendor_name,
// website_url} object, subscriber-email as one address or several) and
// matches none is reported where it is wrong and why. huma says only
// "expected value to match exactly one schema but matched none" at the
// whole value (body.users[2]); here the value is checked again against the
// one form of its JSON type, and that form's failures take the vague one's
// place (body.users[2].email: expected string). A value of no form's type
// is told the types it may have (expected object or string).

// registryKey holds, in an operation's Metadata, the schema registry its
// request body's references point into (register sets it).
const registryKey = "schema-registry"

// preciseAlternatives replaces the vague failures of oneOf values of op's
// request body with precise ones.
func preciseAlternatives(op *huma.Operation, ds []*ProblemDetail) []*ProblemDetail {
	if op == nil || op.RequestBody == nil || !slices.ContainsFunc(ds, isVague) {
		return ds
	}
	reg, _ := op.Metadata[registryKey].(huma.Registry)
	mt := op.RequestBody.Content["application/json"]
	if reg == nil || mt == nil || mt.Schema == nil {
		return ds
	}
	// A place another failure names already (a resolver's) is not named twice.
	named := map[string]bool{}
	for _, d := range ds {
		if !isVague(d) {
			named[d.Location] = true
		}
	}
	out := make([]*ProblemDetail, 0, len(ds))
	for _, d := range ds {
		if !isVague(d) {
			out = append(out, d)
			continue
		}
		for _, p := range precise(reg, schemaAt(reg, mt.Schema, d.Location), d) {
			if p == d || !named[p.Location] {
				out = append(out, p)
			}
		}
	}
	return out
}

func isVague(d *ProblemDetail) bool {
	return d.Message == validation.MsgExpectedMatchExactlyOneSchema && d.Value != nil
}

// precise returns the failures of d's value against the form of s (a
// oneOf) of the value's JSON type, or d told the types it may have.
func precise(reg huma.Registry, s *huma.Schema, d *ProblemDetail) []*ProblemDetail {
	if s == nil || len(s.OneOf) == 0 {
		return []*ProblemDetail{d}
	}
	got := jsonType(d.Value)
	var (
		forms []*huma.Schema
		types []string
	)
	for _, alt := range s.OneOf {
		alt = deref(reg, alt)
		if alt.Type == got || (alt.Type == huma.TypeInteger && got == huma.TypeNumber) {
			forms = append(forms, alt)
		}
		if alt.Type != "" && !slices.Contains(types, alt.Type) {
			types = append(types, alt.Type)
		}
	}
	if len(forms) == 0 && len(types) > 0 {
		slices.Sort(types)
		return []*ProblemDetail{{Location: d.Location, Value: d.Value, Message: "expected " + strings.Join(types, " or ")}}
	}
	if len(forms) != 1 {
		return []*ProblemDetail{d}
	}
	res := &huma.ValidateResult{}
	huma.Validate(reg, forms[0], huma.NewPathBuffer([]byte(d.Location), len(d.Location)), huma.ModeWriteToServer, d.Value, res)
	if len(res.Errors) == 0 {
		return []*ProblemDetail{d}
	}
	out := make([]*ProblemDetail, 0, len(res.Errors))
	for _, err := range res.Errors {
		if ed, ok := err.(*huma.ErrorDetail); ok {
			out = append(out, &ProblemDetail{Location: ed.Location, Message: ed.Message, Value: ed.Value})
		} else {
			out = append(out, &ProblemDetail{Location: d.Location, Message: err.Error()})
		}
	}
	return out
}

// jsonType is the JSON Schema type of a decoded JSON value.
func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return huma.TypeObject
	case []any:
		return huma.TypeArray
	case string:
		return huma.TypeString
	case bool:
		return huma.TypeBoolean
	case float64, int, int64:
		return huma.TypeNumber
	}
	return ""
}

func deref(reg huma.Registry, s *huma.Schema) *huma.Schema {
	for s != nil && s.Ref != "" {
		s = reg.SchemaFromRef(s.Ref)
	}
	return s
}

// schemaAt returns the schema of the value at a body location
// (body.users[2]) of a request whose body has schema root, or nil.
func schemaAt(reg huma.Registry, root *huma.Schema, loc string) *huma.Schema {
	rest, ok := strings.CutPrefix(loc, "body")
	s := deref(reg, root)
	for ok && rest != "" && s != nil {
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[") + 1
			if end == 0 {
				end = len(rest)
			}
			s, rest = deref(reg, s.Properties[rest[1:end]]), rest[end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil
			}
			if _, err := strconv.Atoi(rest[1:end]); err != nil {
				return nil
			}
			s, rest = deref(reg, s.Items), rest[end+1:]
		default:
			return nil
		}
	}
	if !ok {
		return nil
	}
	return s
}

// dropVagueAlternatives drops the failure of a value that matched none of
// the forms a schema allows (huma's oneOf message, at body.users[0]) when
// another failure names what is wrong inside it (body.users[0].role, from
// a resolver): the precise one says where and why, the vague one neither.
func dropVagueAlternatives(ds []*ProblemDetail) []*ProblemDetail {
	inside := func(loc, outer string) bool {
		return len(loc) > len(outer) && strings.HasPrefix(loc, outer) && (loc[len(outer)] == '.' || loc[len(outer)] == '[')
	}
	var out []*ProblemDetail
	for _, d := range ds {
		vague := d.Message == validation.MsgExpectedMatchExactlyOneSchema && slices.ContainsFunc(ds, func(o *ProblemDetail) bool {
			return inside(o.Location, d.Location)
		})
		if !vague {
			out = append(out, d)
		}
	}
	return out
}
