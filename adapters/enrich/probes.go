package enrich

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// probeMaxBytes is the most of a probed file the scan reads: enough to
// recognise a .git/HEAD, a .env or a status page.
const probeMaxBytes = 64 << 10

// probe is one path the exposed-file checks fetch.
type probe struct {
	check, code, path string
	// kind describes the body when it is real content of the file's kind,
	// else "".
	kind func([]byte) string
}

// probes are the only paths fetched beyond the home page and the
// well-known files.
var probes = []probe{
	{"git_directory", "exposed_git", ".git/HEAD", func(b []byte) string {
		if h := gitHead(b); h != "" {
			return "the HEAD of a Git repository (" + strconv.Quote(h) + ")"
		}
		return ""
	}},
	{"env_file", "exposed_env", ".env", func(b []byte) string {
		keys := envKeys(b)
		if len(keys) == 0 {
			return ""
		}
		shown := keys[:min(len(keys), 8)]
		more := ""
		if len(keys) > len(shown) {
			more = ", ..."
		}
		return fmt.Sprintf("a dotenv file of %d variables (%s%s; values not recorded)", len(keys), strings.Join(shown, ", "), more)
	}},
	{"server_status", "exposed_server_status", "server-status", serverStatus},
}

// probeChecks are the checks of the exposed-file probes.
var probeChecks = []string{"git_directory", "env_file", "server_status"}

// exposedFiles fetches a random path and the probes under base (the
// scanned host's root, https when it speaks TLS), side by side, without
// following redirects and reading at most probeMaxBytes each. A probe is a
// finding when it answers 200 with real content of its kind, unless the
// random path answered 200 with the same body: a site that answers every
// path with one page (a soft 404) is not flagged.
func (r *scanRun) exposedFiles(ctx context.Context, base string) {
	token := make([]byte, 8)
	_, _ = rand.Read(token)
	randomPath := "vetted-probe-" + hex.EncodeToString(token)
	urls := []string{base + randomPath}
	for _, p := range probes {
		urls = append(urls, base+p.path)
	}
	pages := make([]*Page, len(urls))
	errs := make([]error, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Go(func() { pages[i], errs[i] = r.s.fetch.getOnceLimited(ctx, u, probeMaxBytes) })
	}
	wg.Wait()
	if errs[0] != nil {
		for _, p := range probes {
			r.notChecked(p.check, "the random path "+urls[0]+", to tell a soft 404: "+errs[0].Error(), base+p.path)
		}
		return
	}
	rnd := pages[0]
	for i, p := range probes {
		u, pg := urls[i+1], pages[i+1]
		if errs[i+1] != nil {
			r.notChecked(p.check, errs[i+1].Error(), u)
			continue
		}
		if pg.Status != 200 {
			continue
		}
		what := p.kind(pg.Body)
		if what == "" {
			continue
		}
		if rnd.Status == 200 && sameBody(rnd.Body, randomPath, pg.Body, p.path) {
			continue
		}
		r.record(p.code, fmt.Sprintf("%s answered HTTP 200 with %s; a random path, %s, answered HTTP %d", u, what, urls[0], rnd.Status), u)
	}
}

// sameBody reports whether two answers are one page, each with the path it
// was asked for left out (a soft 404 may echo it).
func sameBody(a []byte, aPath string, b []byte, bPath string) bool {
	a = bytes.TrimSpace(bytes.ReplaceAll(a, []byte(aPath), nil))
	b = bytes.TrimSpace(bytes.ReplaceAll(b, []byte(bPath), nil))
	return bytes.Equal(a, b)
}

// aiaMaxURLs bounds the caIssuers URLs tried for one certificate.
const aiaMaxURLs = 2

// aiaIssuer fetches the issuer a leaf names in its AIA caIssuers (RFC
// 5280 §4.2.2.1) through the fetcher, when the served chain failed for an
// unknown authority. It returns nil and no error when there is nothing to
// fetch.
func (r *scanRun) aiaIssuer(ctx context.Context, leaf *x509.Certificate, verr error) (*x509.Certificate, string, error) {
	var ua x509.UnknownAuthorityError
	if !errors.As(verr, &ua) || len(leaf.IssuingCertificateURL) == 0 {
		return nil, "", nil
	}
	var errs []error
	for _, u := range leaf.IssuingCertificateURL[:min(len(leaf.IssuingCertificateURL), aiaMaxURLs)] {
		p, err := r.s.fetch.Get(ctx, u)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if p.Status != 200 {
			errs = append(errs, fmt.Errorf("%s answered HTTP %d", u, p.Status))
			continue
		}
		der := p.Body
		if b, _ := pem.Decode(der); b != nil && b.Type == "CERTIFICATE" {
			der = b.Bytes
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: not a DER or PEM certificate: %w", u, err))
			continue
		}
		return c, u, nil
	}
	return nil, "", joinErrors(errs)
}
