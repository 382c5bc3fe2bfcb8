package records_test

import (
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/records"
)

func TestNormalizeOwner(t *testing.T) {
	members := []accounts.Member{{Email: "ann@acme.example", Role: accounts.RoleOwner}, {Email: "vic@acme.example", Role: accounts.RoleViewer}}
	for _, c := range []struct {
		name, in, want string
		fields         []string
	}{
		{"none", "", "", nil},
		{"a member", "ann@acme.example", "ann@acme.example", nil},
		{"case does not matter", "  Ann@ACME.example ", "ann@acme.example", nil},
		{"a viewer may own", "vic@acme.example", "vic@acme.example", nil},
		{"not a member", "eve@acme.example", "", []string{"business_owner"}},
		{"not an address", "ann", "", []string{"business_owner"}},
		{"a display name", "Ann <ann@acme.example>", "", []string{"business_owner"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := records.NormalizeOwner(c.in, members)
			if strings.Join(fields(err), ",") != strings.Join(c.fields, ",") {
				t.Fatalf("fields = %v, want %v (%v)", fields(err), c.fields, err)
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
