package api_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestWrongTypesInsideFormsAreNamedWhereTheyAre: a value of a body field
// that may take several forms (users[], vendors[], subscriber-email) and
// holds a wrong JSON type is refused at the place of the wrong type
// (body.users[2].email), not as a whole element matching none of the forms;
// a value of no form's type is told the types it may have.
func TestWrongTypesInsideFormsAreNamedWhereTheyAre(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	before := members(t, env, o.acct, o.owner)
	for _, c := range []struct {
		method, path string
		body         map[string]any
		where        []string
		words        []string
	}{
		{"POST", "/users?account-id=" + o.acct, map[string]any{"users": []any{"a@acme.test", map[string]any{"email": "b@acme.test"},
			map[string]any{"email": 5, "role": "member"}, map[string]any{"email": "c@acme.test", "role": 3}, 7, map[string]any{"role": "member"},
			map[string]any{"email": "d@acme.test", "nick": "d"}}},
			[]string{"body.users[2].email row 0 ", "body.users[3].role row 0 ", "body.users[4] row 0 ", "body.users[5] row 0 ", "body.users[6].nick row 0 "},
			[]string{"expected string", "expected object or string", "email", "unexpected property"}},
		{"DELETE", "/users?account-id=" + o.acct, map[string]any{"users": []any{map[string]any{"email": true}}},
			[]string{"body.users[0].email row 0 "}, []string{"expected string"}},
		{"POST", "/vendor-lists?operation=save-vendors&account-id=" + o.acct + "&vendor-list=master-list", map[string]any{"vendors": []any{"Asana",
			map[string]any{"vendor_name": 12}, map[string]any{"vendor_name": "Box", "website_url": []any{"x"}}, false}},
			[]string{"body.vendors[1].vendor_name row 0 ", "body.vendors[2].website_url row 0 ", "body.vendors[3] row 0 "},
			[]string{"expected string", "expected object or string"}},
		{"POST", "/subscribers?account-id=" + o.acct + "&vendor-list-id=" + o.master, map[string]any{"subscriber-email": []any{"a@acme.test", 4}},
			[]string{"body.subscriber-email[1] row 0 "}, []string{"expected string"}},
	} {
		res := env.Do(t, c.method, c.path, o.owner, c.body)
		mustProblem(t, res, http.StatusUnprocessableEntity, c.words...)
		if strings.Contains(res.String(), "matched none") {
			t.Errorf("%s %s: the vague failure is still there: %s", c.method, c.path, res.Body)
		}
		if _, cells := problemCells(t, res); !reflect.DeepEqual(cells, c.where) {
			t.Errorf("%s %s: failures at %q, want %q: %s", c.method, c.path, cells, c.where, res.Body)
		}
	}
	if after := members(t, env, o.acct, o.owner); !reflect.DeepEqual(after, before) {
		t.Fatalf("refused requests changed members: %v -> %v", before, after)
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list=master-list", o.owner, nil), 200)
}
