package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

func TestDocsPageIsServedOffline(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	page := e.Do(t, http.MethodGet, "/docs", "", nil)
	apitest.Must(t, page, http.StatusOK)
	if strings.Contains(page.String(), "https://") || strings.Contains(page.String(), "http://") {
		t.Fatalf("the docs page references another origin:\n%s", page)
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unpkg") {
		t.Errorf("CSP %q", csp)
	}
	head := e.Do(t, http.MethodHead, "/docs", "", nil)
	if head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("HEAD /docs = %d %q (%d body bytes)", head.Status, head.Header.Get("Content-Type"), len(head.Body))
	}
	// Every asset the page names is served by the app itself.
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page.String(), -1)
	if len(refs) != 2 {
		t.Fatalf("page references %v; want the script and the stylesheet", refs)
	}
	for _, m := range refs {
		res, err := e.Client.Get(e.URL + m[1])
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || n < 100_000 || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("GET %s = %d, %d bytes, Cache-Control %q", m[1], res.StatusCode, n, res.Header.Get("Cache-Control"))
		}
		head := e.Do(t, http.MethodHead, m[1], "", nil)
		if head.Status != http.StatusOK {
			t.Errorf("HEAD %s = %d", m[1], head.Status)
		}
	}
	if r := e.Do(t, http.MethodGet, "/openapi.yaml", "", nil); r.Status != http.StatusOK {
		t.Errorf("the page's API description /openapi.yaml answers %d", r.Status)
	}
}

func TestDocsAssetsArePinned(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"docsassets/web-components.min.js": "2cb7bb60bbf2846e077e2bd8357a61785120a1ab657885d482a6bd37b034c709",
		"docsassets/styles.min.css":        "062127db60930e408a1598797004dfcd14742b83a059ed6b381f08d42c4b4d3c",
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s has sha256 %s, want the pinned %s (see docsassets/README.md)", file, got, want)
		}
	}
}
