package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fieldArgs are the functions of the core that take an error's field, with
// the position of that argument: the constructors of core errors, the
// parse functions that take the field of their caller, and the local
// helpers of review.Apply (text, date).
var fieldArgs = map[string]int{
	"Invalid": 0, "TooLarge": 0, "Add": 0, "PlainText": 0, "ParseID": 0, "Index": 0,
	"WithField": 1, "Nest": 1, "NormalizeEmails": 0, "ParseName": 0, "ParseDate": 0,
	"ParseInstant": 0, "ParseState": 0, "cleanName": 0, "text": 0, "date": 0,
}

var goPath = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*(\[\]|\.[A-Z][A-Za-z0-9]*)*$`)

// TestWireNamesCoverTheCore reads the core's sources and checks that every
// error field they spell out is a Go-side path (core/errors.go) that the
// table of fields.go maps to the request's name: a field the core adds
// cannot reach a client under its Go name, nor a wire name creep back in.
func TestWireNamesCoverTheCore(t *testing.T) {
	root := filepath.Join("..", "..", "core")
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "strings" {
					return true // strings.Index and the like take no field
				}
			}
			if (name == "text" || name == "date") && filepath.Base(path) != "review.go" {
				return true // the whitelist's constructors of patch.go, not fields
			}
			at, ok := fieldArgs[name]
			if !ok || at >= len(call.Args) {
				return true
			}
			p, ok := literalPath(call.Args[at])
			if !ok || p == "" {
				return true
			}
			if name == "Index" {
				p += "[]"
			}
			seen++
			pos := fset.Position(call.Pos())
			switch {
			case !goPath.MatchString(p):
				t.Errorf("%s: field %q is not a Go-side path", pos, p)
			case name == "Index":
				if _, ok := wireNames[p]; !ok {
					t.Errorf("%s: no wire name for the elements %q", pos, p)
				}
			default:
				if wireName(p) == p {
					t.Errorf("%s: no wire name for %q in wireNames", pos, p)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("found only %d error fields in the core; is the walk broken?", seen)
	}
}

// literalPath reads the field an argument spells out: a string literal, an
// Index call of one (its elements, "Users[]"), or a sum of those.
func literalPath(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Index" && len(e.Args) == 2 {
			p, ok := literalPath(e.Args[0])
			return p + "[]", ok
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, okx := literalPath(e.X)
			y, oky := literalPath(e.Y)
			return x + y, okx && oky
		}
	}
	return "", false
}

func TestWireName(t *testing.T) {
	for in, want := range map[string]string{
		"AccountRef":                 "account-id",
		"Users[0].Email":             "users[0].email",
		"Users[12]":                  "users[12]",
		"Vendors[3].WebsiteURL":      "vendors[3].website_url",
		"Emails[1]":                  "subscriber-email[1]",
		"PolicyInput.High":           "cadence_months.high",
		"Patch.company.founded_year": "company.founded_year",
		"CSV":                        "csv",
		"since":                      "since", // the API's own name
		"":                           "",
		"NotInTheTable":              "NotInTheTable",
	} {
		if got := wireName(in); got != want {
			t.Errorf("wireName(%q) = %q, want %q", in, got, want)
		}
	}
}
