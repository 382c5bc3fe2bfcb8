package localblob_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/localblob"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// clock is a settable ports.Clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type env struct {
	store *localblob.Store
	srv   *httptest.Server
	clock *clock
	dir   string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	signer, err := signedlink.New([]byte("0123456789abcdef-localblob-test"))
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{now: testenv.ClockStart(t, time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	s, err := localblob.New(dir, srv.URL+"/app", signer, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	mux.Handle("/app"+localblob.MountPath, s.Handler())
	return &env{store: s, srv: srv, clock: c, dir: dir}
}

// client is not http.DefaultClient: httptest.Server.Close closes the idle
// connections of http.DefaultTransport, which broke a parallel test's request
// that had just taken one ("http: CloseIdleConnections called").
var client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}

func do(t *testing.T, method, u string, hdr map[string]string, body io.Reader) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

const key = "accounts/a1/assessments/b2/c3"

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, fileName, contentType string
		body                        []byte
	}{
		{"pdf", "report.pdf", "application/pdf", bytes.Repeat([]byte("%PDF-1.7 "), 400)},
		{"non-ASCII name", "Prüfbericht 2026.txt", "text/plain", []byte("hello")},
		{"empty file", "empty.csv", "text/csv", nil},
		{"exactly the cap", "cap.bin", "application/zip", bytes.Repeat([]byte{7}, 4096)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx := context.Background()
			put, err := e.store.PresignPut(ctx, key, tt.contentType, 4096, 15*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if put.Method != http.MethodPut || put.Headers["Content-Type"] != tt.contentType || len(put.Fields) != 0 {
				t.Fatalf("presigned put = %+v", put)
			}
			if !strings.HasPrefix(put.URL, e.srv.URL+"/app"+localblob.MountPath+"?") {
				t.Fatalf("URL %q not under the mount path", put.URL)
			}
			if want := e.clock.Now().Add(15 * time.Minute); !put.ExpiresAt.Equal(want) {
				t.Errorf("ExpiresAt = %v, want %v", put.ExpiresAt, want)
			}
			if _, err := e.store.Stat(ctx, key); !errors.Is(err, core.ErrNotFound) {
				t.Fatalf("Stat before upload: %v", err)
			}
			resp := do(t, put.Method, put.URL, put.Headers, bytes.NewReader(tt.body))
			if resp.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("PUT = %d %s", resp.StatusCode, b)
			}
			size, err := e.store.Stat(ctx, key)
			if err != nil || size != int64(len(tt.body)) {
				t.Fatalf("Stat = %d, %v; want %d", size, err, len(tt.body))
			}

			get, err := e.store.PresignGet(ctx, key, tt.fileName, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			resp = do(t, get.Method, get.URL, get.Headers, nil)
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK || !bytes.Equal(got, tt.body) {
				t.Fatalf("GET = %d, %d bytes; want 200, %d bytes", resp.StatusCode, len(got), len(tt.body))
			}
			if ct := resp.Header.Get("Content-Type"); ct != tt.contentType {
				t.Errorf("Content-Type = %q, want %q", ct, tt.contentType)
			}
			disp, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
			if err != nil || disp != "attachment" || params["filename"] != tt.fileName {
				t.Errorf("Content-Disposition = %q (%v), want attachment; filename=%q", resp.Header.Get("Content-Disposition"), err, tt.fileName)
			}

			if err := e.store.Delete(ctx, key, "accounts/never/uploaded"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.store.Stat(ctx, key); !errors.Is(err, core.ErrNotFound) {
				t.Fatalf("Stat after delete: %v", err)
			}
			if resp := do(t, get.Method, get.URL, nil, nil); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET after delete = %d, want 404", resp.StatusCode)
			}
		})
	}
}

// setQuery returns u with one query parameter replaced.
func setQuery(t *testing.T, u, name, value string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Query()
	q.Set(name, value)
	p.RawQuery = q.Encode()
	return p.String()
}

func TestUploadRefused(t *testing.T) {
	t.Parallel()
	const ct, maxSize = "application/pdf", 1024
	small := bytes.Repeat([]byte("a"), 100)
	big := bytes.Repeat([]byte("b"), maxSize+1)
	tests := []struct {
		name   string
		url    func(t *testing.T, u string) string
		hdr    map[string]string
		body   func() io.Reader
		before func(e *env)
		want   int
	}{
		{name: "tampered signature", url: func(t *testing.T, u string) string { return setQuery(t, u, "sig", "AAAA"+strings.Repeat("x", 39)) },
			hdr: map[string]string{"Content-Type": ct}, want: http.StatusForbidden},
		{name: "no signature", url: func(t *testing.T, u string) string { return setQuery(t, u, "sig", "") },
			hdr: map[string]string{"Content-Type": ct}, want: http.StatusForbidden},
		{name: "raised size cap", url: func(t *testing.T, u string) string { return setQuery(t, u, "max", "999999999") },
			hdr: map[string]string{"Content-Type": ct}, want: http.StatusForbidden},
		{name: "other key", url: func(t *testing.T, u string) string { return setQuery(t, u, "key", "accounts/other/x") },
			hdr: map[string]string{"Content-Type": ct}, want: http.StatusForbidden},
		{name: "other content type in URL", url: func(t *testing.T, u string) string { return setQuery(t, u, "ct", "text/html") },
			hdr: map[string]string{"Content-Type": "text/html"}, want: http.StatusForbidden},
		{name: "later expiry", url: func(t *testing.T, u string) string { return setQuery(t, u, "exp", "4102444800") },
			hdr: map[string]string{"Content-Type": ct}, want: http.StatusForbidden},
		{name: "expired", before: func(e *env) { e.clock.Add(15*time.Minute + time.Second) },
			hdr: map[string]string{"Content-Type": ct}, want: http.StatusForbidden},
		{name: "wrong content type", hdr: map[string]string{"Content-Type": "text/html"}, want: http.StatusForbidden},
		{name: "content type with parameters", hdr: map[string]string{"Content-Type": ct + "; charset=utf-8"}, want: http.StatusForbidden},
		{name: "no content type", want: http.StatusForbidden},
		{name: "oversize with Content-Length", hdr: map[string]string{"Content-Type": ct},
			body: func() io.Reader { return bytes.NewReader(big) }, want: http.StatusRequestEntityTooLarge},
		{name: "oversize chunked", hdr: map[string]string{"Content-Type": ct},
			body: func() io.Reader { return io.MultiReader(bytes.NewReader(big)) }, want: http.StatusRequestEntityTooLarge},
		{name: "GET with an upload URL", want: http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx := context.Background()
			put, err := e.store.PresignPut(ctx, key, ct, maxSize, 15*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if tt.before != nil {
				tt.before(e)
			}
			u := put.URL
			if tt.url != nil {
				u = tt.url(t, u)
			}
			method := http.MethodPut
			if tt.want == http.StatusMethodNotAllowed {
				method = http.MethodGet
			}
			var body io.Reader = bytes.NewReader(small)
			if tt.body != nil {
				body = tt.body()
			}
			resp := do(t, method, u, tt.hdr, body)
			if resp.StatusCode != tt.want {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("status = %d (%s), want %d", resp.StatusCode, b, tt.want)
			}
			if _, err := e.store.Stat(ctx, key); !errors.Is(err, core.ErrNotFound) {
				t.Errorf("a refused upload left an object: %v", err)
			}
			if _, err := e.store.Stat(ctx, "accounts/other/x"); !errors.Is(err, core.ErrNotFound) {
				t.Errorf("a refused upload left an object at another key: %v", err)
			}
			left, _ := os.ReadDir(filepath.Join(e.dir, "tmp"))
			if len(left) != 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

func TestDownloadRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		url     func(t *testing.T, u string) string
		advance time.Duration
		method  string
		want    int
	}{
		{name: "tampered signature", url: func(t *testing.T, u string) string { return setQuery(t, u, "sig", strings.Repeat("A", 43)) }, want: http.StatusForbidden},
		{name: "other file name", url: func(t *testing.T, u string) string { return setQuery(t, u, "fn", "evil.html") }, want: http.StatusForbidden},
		{name: "other key", url: func(t *testing.T, u string) string { return setQuery(t, u, "key", "accounts/x") }, want: http.StatusForbidden},
		{name: "expired", advance: time.Minute + time.Second, want: http.StatusForbidden},
		{name: "still valid at expiry", advance: time.Minute, want: http.StatusOK},
		{name: "PUT with a download URL", method: http.MethodPut, want: http.StatusMethodNotAllowed},
		{name: "HEAD", method: http.MethodHead, want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			ctx := context.Background()
			put, err := e.store.PresignPut(ctx, key, "text/plain", 100, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if resp := do(t, put.Method, put.URL, put.Headers, strings.NewReader("secret")); resp.StatusCode != http.StatusOK {
				t.Fatalf("PUT = %d", resp.StatusCode)
			}
			get, err := e.store.PresignGet(ctx, key, "notes.txt", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			e.clock.Add(tt.advance)
			u := get.URL
			if tt.url != nil {
				u = tt.url(t, u)
			}
			method := cmp.Or(tt.method, http.MethodGet)
			resp := do(t, method, u, nil, nil)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want {
				t.Fatalf("status = %d (%s), want %d", resp.StatusCode, body, tt.want)
			}
			if tt.want != http.StatusOK && strings.Contains(string(body), "secret") {
				t.Fatal("a refused download leaked the content")
			}
		})
	}
}

func TestKeysAreValidated(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	bad := []string{"", "../etc/passwd", "a/../../b", "/abs/path", "a//b", "a/./b", "a/", `a\b`, "a\x00b", "a\nb", strings.Repeat("k", 1025)}
	for _, k := range bad {
		if err := localblob.ValidateKey(k); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("ValidateKey(%q) = %v, want ErrInvalid", k, err)
		}
		if _, err := e.store.PresignPut(ctx, k, "text/plain", 10, time.Minute); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("PresignPut(%q) = %v, want ErrInvalid", k, err)
		}
		if _, err := e.store.PresignGet(ctx, k, "x", time.Minute); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("PresignGet(%q) = %v, want ErrInvalid", k, err)
		}
		if _, err := e.store.Stat(ctx, k); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("Stat(%q) = %v, want ErrInvalid", k, err)
		}
		if err := e.store.Delete(ctx, k); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("Delete(%q) = %v, want ErrInvalid", k, err)
		}
	}
	for _, k := range []string{"a", "accounts/1/assessments/2/3", "with space/ü.pdf", "..a/b..", strings.Repeat("k", 1024)} {
		if err := localblob.ValidateKey(k); err != nil {
			t.Errorf("ValidateKey(%q) = %v, want nil", k, err)
		}
	}
}

func TestPresignRejectsBadArguments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
	}{
		{"empty content type", func() error { _, err := e.store.PresignPut(ctx, key, "", 1, time.Minute); return err }},
		{"header injection in content type", func() error {
			_, err := e.store.PresignPut(ctx, key, "text/plain\r\nX-Evil: 1", 1, time.Minute)
			return err
		}},
		{"negative cap", func() error { _, err := e.store.PresignPut(ctx, key, "text/plain", -1, time.Minute); return err }},
		{"zero ttl", func() error { _, err := e.store.PresignPut(ctx, key, "text/plain", 1, 0); return err }},
		{"control char in file name", func() error { _, err := e.store.PresignGet(ctx, key, "a\r\nb", time.Minute); return err }},
		{"zero get ttl", func() error { _, err := e.store.PresignGet(ctx, key, "a", 0); return err }},
	}
	for _, tt := range tests {
		if err := tt.call(); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tt.name, err)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	signer, _ := signedlink.New([]byte("0123456789abcdef"))
	c := &clock{now: time.Now()}
	dir := t.TempDir()
	tests := []struct {
		name, dir, base string
		signer          *signedlink.Signer
		clock           *clock
	}{
		{"no dir", "", "http://x", signer, c},
		{"relative base", dir, "/blobs", signer, c},
		{"ftp base", dir, "ftp://x", signer, c},
		{"base with query", dir, "http://x/?a=1", signer, c},
		{"nil signer", dir, "http://x", nil, c},
	}
	for _, tt := range tests {
		if _, err := localblob.New(tt.dir, tt.base, tt.signer, tt.clock); err == nil {
			t.Errorf("%s: New succeeded", tt.name)
		}
	}
	if _, err := localblob.New(dir, "http://x", signer, nil); err == nil {
		t.Error("nil clock: New succeeded")
	}
}

func TestStatIgnoresDirectories(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	put, _ := e.store.PresignPut(ctx, "a/b/c", "text/plain", 10, time.Minute)
	if resp := do(t, put.Method, put.URL, put.Headers, strings.NewReader("x")); resp.StatusCode != http.StatusOK {
		t.Fatalf("PUT = %d", resp.StatusCode)
	}
	if _, err := e.store.Stat(ctx, "a/b"); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("Stat(dir) = %v, want ErrNotFound", err)
	}
}

// An upload URL stores one object: a second upload with it, or with another
// URL for the same key, answers 409 and the first file stays as it was.
func TestUploadIsWrittenOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	first, second := []byte("%PDF-1.7 the auditors' copy"), []byte("%PDF-1.7 a forged replacement, longer")
	put, err := e.store.PresignPut(ctx, key, "application/pdf", 1024, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if resp := do(t, put.Method, put.URL, put.Headers, bytes.NewReader(first)); resp.StatusCode != http.StatusOK {
		t.Fatalf("first PUT = %d", resp.StatusCode)
	}
	again, err := e.store.PresignPut(ctx, key, "application/pdf", 1024, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for name, req := range map[string]string{"same URL": put.URL, "new URL": again.URL} {
		resp := do(t, http.MethodPut, req, put.Headers, bytes.NewReader(second))
		msg, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(msg), "written once") {
			t.Errorf("second PUT with the %s = %d %s; want 409", name, resp.StatusCode, msg)
		}
	}
	get, err := e.store.PresignGet(ctx, key, "evidence.pdf", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	resp := do(t, get.Method, get.URL, nil, nil)
	if got, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || !bytes.Equal(got, first) {
		t.Fatalf("download = %d %q; want the first file", resp.StatusCode, got)
	}
	sum := sha256.Sum256(first)
	if d, err := e.store.Digest(ctx, key); err != nil || d.Size != int64(len(first)) || d.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("Digest = %+v, %v; want %d bytes, %x", d, err, len(first), sum)
	}
	if _, err := e.store.Digest(ctx, key+"x"); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("Digest of a missing key = %v, want ErrNotFound", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(e.dir, "tmp")); len(entries) != 0 {
		t.Errorf("refused uploads left %d temporary files", len(entries))
	}
}

// Uploads racing for one key: exactly one is stored, whole, and the others
// answer 409.
func TestConcurrentUploadsStoreOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	put, err := e.store.PresignPut(ctx, key, "text/plain", 1<<20, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	bodies := make([][]byte, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		bodies[i] = bytes.Repeat([]byte{byte('a' + i)}, 64<<10)
		wg.Go(func() {
			req, _ := http.NewRequest(put.Method, put.URL, bytes.NewReader(bodies[i]))
			req.Header.Set("Content-Type", "text/plain")
			if resp, err := client.Do(req); err == nil {
				codes[i] = resp.StatusCode
				_ = resp.Body.Close()
			}
		})
	}
	wg.Wait()
	winner := -1
	for i, c := range codes {
		switch {
		case c == http.StatusOK && winner < 0:
			winner = i
		case c != http.StatusConflict:
			t.Fatalf("answers %v: want one 200 and the rest 409", codes)
		}
	}
	if winner < 0 {
		t.Fatalf("answers %v: no upload stored", codes)
	}
	sum := sha256.Sum256(bodies[winner])
	if d, err := e.store.Digest(ctx, key); err != nil || d.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("stored %+v, %v; want the winner's file whole", d, err)
	}
}
