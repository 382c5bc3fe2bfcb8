package api

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
)

// docsAssetVersion is the pinned Stoplight Elements release in docsassets/.
const docsAssetVersion = "9.0.25"

//go:embed docsassets/web-components.min.js docsassets/styles.min.css docsassets/LICENSE docsassets/web-components.min.js.LICENSE.txt
var docsAssets embed.FS

// docsCSP allows nothing from outside the app: the page, its script and its
// styles come from this binary, and "try it" calls the API on this origin.
var docsCSP = strings.Join([]string{
	"default-src 'none'",
	"base-uri 'none'",
	"connect-src 'self'",
	"img-src 'self' data:",
	"font-src 'self' data:",
	"form-action 'none'",
	"frame-ancestors 'none'",
	"script-src 'self'",
	"style-src 'self' 'unsafe-inline'",
}, "; ")

var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="referrer" content="no-referrer">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{.Title}}</title>
    <link rel="stylesheet" href="/docs/assets/{{.Version}}/styles.min.css">
    <script src="/docs/assets/{{.Version}}/web-components.min.js"></script>
  </head>
  <body style="height: 100vh;">
    <elements-api apiDescriptionUrl="/openapi.yaml" router="hash" layout="sidebar" tryItCredentialsPolicy="same-origin"></elements-api>
  </body>
</html>
`))

// registerDocs serves /docs (GET and HEAD) and its pinned assets from the
// binary, in place of huma's page, which loads Stoplight Elements from a CDN
// and so shows a blank page offline.
func registerDocs(r chi.Router, title string) {
	var page strings.Builder
	if err := docsPage.Execute(&page, struct{ Title, Version string }{title + " Reference", docsAssetVersion}); err != nil {
		panic(err) // a constant template
	}
	body := page.String()
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	serve := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", docsCSP)
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "docs.html", startTime, strings.NewReader(body))
	}
	r.Get("/docs", serve)
	r.Head("/docs", serve)

	sub, err := fs.Sub(docsAssets, "docsassets")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/docs/assets/"+docsAssetVersion+"/", http.FileServerFS(sub))
	assets := func(w http.ResponseWriter, r *http.Request) {
		// The version is in the path, so the content under it never changes.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		files.ServeHTTP(w, r)
	}
	r.Get("/docs/assets/"+docsAssetVersion+"/*", assets)
	r.Head("/docs/assets/"+docsAssetVersion+"/*", assets)
}

// startTime is the Last-Modified of the docs page: it changes only with
// the binary.
var startTime = time.Now().UTC().Truncate(time.Second)
