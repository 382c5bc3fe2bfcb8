package vendors_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/vendors"
)

// leaves lists the paths (by Go field names) of the fields of v that hold
// a value other than their zero value, descending into structs.
func leaves(v reflect.Value, at string) []string {
	if v.Kind() == reflect.Struct && v.Type().String() != "time.Time" {
		var out []string
		for i := range v.NumField() {
			out = append(out, leaves(v.Field(i), at+"."+v.Type().Field(i).Name)...)
		}
		return out
	}
	if v.IsZero() {
		return nil
	}
	return []string{at}
}

// groups are the editable groups of a profile, by Go field name.
var groups = []string{"Company", "Security", "Privacy", "Maturity"}

// countLeaves counts the fields of the editable groups of a profile.
func countLeaves(t reflect.Type) int {
	if t.Kind() != reflect.Struct {
		return 1
	}
	n := 0
	for i := range t.NumField() {
		n += countLeaves(t.Field(i).Type)
	}
	return n
}

// sampleValue is a value of the kind a path takes, found by trying each.
func sampleValue(t *testing.T, path string) (json.RawMessage, vendors.Profile) {
	t.Helper()
	for _, v := range []string{`"x"`, `7`, `true`, `["x"]`} {
		p := vendors.Profile{}
		if err := p.ApplyPatch(patchAt(path, v), patched); err == nil {
			return json.RawMessage(v), p
		}
	}
	t.Fatalf("%s takes none of a string, an integer, a boolean and a list of strings", path)
	return nil, vendors.Profile{}
}

// patchAt builds the merge patch that sets path to value.
func patchAt(path, value string) map[string]json.RawMessage {
	parts := strings.Split(path, ".")
	doc := value
	for i := len(parts) - 1; i >= 1; i-- {
		doc = `{"` + parts[i] + `":` + doc + `}`
	}
	return map[string]json.RawMessage{parts[0]: json.RawMessage(doc)}
}

// Each editable path sets exactly one field of the four editable groups,
// no two paths the same one, and every field of those groups has a path:
// the whitelist maps each field once. Null clears what a value set.
func TestPatchPathsMapEachFieldOnce(t *testing.T) {
	t.Parallel()
	paths := vendors.PatchPaths()
	set := map[string]string{} // Go field path -> patch path
	for _, path := range paths {
		if !slices.Contains(vendors.PatchableGroups, strings.Split(path, ".")[0]) {
			t.Fatalf("%s is not under an editable group", path)
		}
		_, p := sampleValue(t, path)
		var changed []string
		for _, g := range groups {
			changed = append(changed, leaves(reflect.ValueOf(p).FieldByName(g), g)...)
		}
		if len(changed) != 1 {
			t.Fatalf("%s set %v, want exactly one field", path, changed)
		}
		if other, ok := set[changed[0]]; ok {
			t.Fatalf("%s and %s both set %s", other, path, changed[0])
		}
		set[changed[0]] = path
		if err := p.ApplyPatch(patchAt(path, "null"), patched); err != nil {
			t.Fatalf("null at %s: %v", path, err)
		}
		for _, g := range groups {
			if rest := leaves(reflect.ValueOf(p).FieldByName(g), g); len(rest) != 0 {
				t.Fatalf("null at %s left %v", path, rest)
			}
		}
	}
	want := 0
	for _, g := range groups {
		f, _ := reflect.TypeFor[vendors.Profile]().FieldByName(g)
		want += countLeaves(f.Type)
	}
	if len(set) != want {
		t.Fatalf("%d fields are editable, the groups have %d: a field of Company, Security, Privacy or Maturity has no path", len(set), want)
	}
}

// A nested object of fields is cleared whole by null, and its members are
// refused like a group's when they are not fields.
func TestPatchNestedObject(t *testing.T) {
	t.Parallel()
	p := sample()
	if err := p.ApplyPatch(patchAt("security.external_signals", "null"), patched); err != nil {
		t.Fatal(err)
	}
	if p.Security.ExternalSignals != (vendors.ExternalSignals{}) || p.Security.TrustCenterURL == "" {
		t.Fatalf("security after external_signals: null = %+v", p.Security)
	}
	for _, bad := range []string{`{"external_signals":"x"}`, `{"external_signals":{"TLS":true}}`, `{"external_signals":{"tls":{"a":1}}}`} {
		p := sample()
		err := p.ApplyPatch(map[string]json.RawMessage{"security": json.RawMessage(bad)}, patched)
		if err == nil || !strings.Contains(err.Error(), "security: has a value of the wrong type") {
			t.Fatalf("security %s: err = %v", bad, err)
		}
	}
}
