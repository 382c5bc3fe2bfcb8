package api_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestImportCSVRefusesRaggedAndNonUTF8Rows: a row whose bytes are not UTF-8
// (sent raw in the JSON body, or already decoded to U+FFFD) and a row with
// fewer or more fields than the header are refused with 422 naming the row
// (and the column for a cell), in a dry run too, and nothing is written.
func TestImportCSVRefusesRaggedAndNonUTF8Rows(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	before := listState(t, env, acct, tok)
	target := "/vendor-lists?operation=import-csv&account-id=" + acct
	tests := []struct {
		name string
		body string // the JSON body, byte for byte
		want []string
	}{
		{"latin-1 bytes in the JSON string", "{\"csv\":\"vendor_name,product_name\\nAcme,Widgets\\nSoci\xe9t\xe9 G\xe9n\xe9rale,Caf\xe9\\n\"}",
			[]string{"body.csv row 2 vendor_name", "body.csv row 2 product_name"}},
		{"U+FFFD escaped", `{"csv":"vendor_name,product_name\nSoci\ufffdt\ufffd,Widgets\n"}`, []string{"body.csv row 1 vendor_name"}},
		{"fewer fields", `{"csv":"vendor_name,website_url,product_name\nAcme,acme.example,Widgets\nGlobex,globex.example\n"}`, []string{"body.csv row 2 "}},
		{"more fields", `{"csv":"vendor_name,website_url\nAcme,acme.example\nGlobex,globex.example,extra\n"}`, []string{"body.csv row 2 "}},
		{"more fields, dry run", `{"dry_run":true,"csv":"vendor_name,website_url\nAcme,acme.example,extra\n"}`, []string{"body.csv row 1 "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := sendRaw(t, env, http.MethodPost, target, map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"},
				strings.NewReader(tt.body))
			mustProblem(t, res, http.StatusUnprocessableEntity, "the file was not imported")
			_, cells := problemCells(t, res)
			if !reflect.DeepEqual(cells, tt.want) {
				t.Fatalf("faults %q, want %q: %s", cells, tt.want, res.Body)
			}
		})
	}
	if after := listState(t, env, acct, tok); after != before {
		t.Fatalf("a refused import wrote:\n%s\n---\n%s", before, after)
	}
	// Accented names in UTF-8 are fine.
	apitest.Must(t, importCSV(t, env, tok, acct, map[string]any{"csv": "vendor_name,product_name\nSociété Générale,Café\n"}), http.StatusOK)
}

// problemCells returns the detail of a problem answer and its failures as
// "<location> row <row> <column>", each of which must have a message.
func problemCells(t *testing.T, res *apitest.Resp) (string, []string) {
	t.Helper()
	var p struct {
		Detail string `json:"detail"`
		Errors []struct {
			Location string `json:"location"`
			Row      int    `json:"row"`
			Column   string `json:"column"`
			Message  string `json:"message"`
		} `json:"errors"`
	}
	res.JSON(t, &p)
	var cells []string
	for _, e := range p.Errors {
		cells = append(cells, fmt.Sprintf("%s row %d %s", e.Location, e.Row, e.Column))
		if e.Message == "" {
			t.Fatalf("failure without a message: %s", res.Body)
		}
	}
	return p.Detail, cells
}
