package s3_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/s3"
	"github.com/vetted-dev/vetted/core"
)

// These tests need no server: presigning is local.

func offline(t *testing.T) *s3.Store {
	t.Helper()
	st, err := s3.New(context.Background(), s3.Config{
		Endpoint: "http://127.0.0.1:1", Bucket: "evidence", AccessKey: "ak", SecretKey: "sk", PathStyle: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  s3.Config
	}{
		{"no bucket", s3.Config{AccessKey: "a", SecretKey: "s"}},
		{"no credentials", s3.Config{Bucket: "b"}},
		{"relative endpoint", s3.Config{Bucket: "b", AccessKey: "a", SecretKey: "s", Endpoint: "127.0.0.1:7070"}},
		{"ftp endpoint", s3.Config{Bucket: "b", AccessKey: "a", SecretKey: "s", Endpoint: "ftp://x"}},
	}
	for _, tt := range tests {
		if _, err := s3.New(context.Background(), tt.cfg); err == nil {
			t.Errorf("%s: New succeeded", tt.name)
		}
	}
}

func TestPresignPutIsAConditionalCreateOfOneType(t *testing.T) {
	t.Parallel()
	st := offline(t)
	before := time.Now()
	req, err := st.PresignPut(context.Background(), "accounts/a/doc", "application/pdf", 25<<20, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(req.URL)
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != http.MethodPut || u.Host != "127.0.0.1:1" || u.Path != "/evidence/accounts/a/doc" || len(req.Fields) != 0 {
		t.Fatalf("method %s url %s fields %v", req.Method, req.URL, req.Fields)
	}
	// The client must send both headers exactly: they are signed.
	if req.Headers["Content-Type"] != "application/pdf" || req.Headers["If-None-Match"] != "*" {
		t.Errorf("headers = %v", req.Headers)
	}
	signed := strings.Split(u.Query().Get("X-Amz-SignedHeaders"), ";")
	for _, h := range []string{"content-type", "host", "if-none-match"} {
		if !slices.Contains(signed, h) {
			t.Errorf("%s is not signed: %v", h, signed)
		}
	}
	if d := req.ExpiresAt.Sub(before); d < 15*time.Minute-time.Second || d > 15*time.Minute+time.Second {
		t.Errorf("ExpiresAt %v is not 15 minutes ahead", req.ExpiresAt)
	}
	if u.Query().Get("X-Amz-Expires") != "900" {
		t.Errorf("X-Amz-Expires = %q, want 900", u.Query().Get("X-Amz-Expires"))
	}
}

func TestPresignRejectsBadArguments(t *testing.T) {
	t.Parallel()
	st := offline(t)
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
	}{
		{"empty key", func() error { _, err := st.PresignPut(ctx, "", "text/plain", 1, time.Minute); return err }},
		{"control char in key", func() error { _, err := st.PresignPut(ctx, "a\nb", "text/plain", 1, time.Minute); return err }},
		{"long key", func() error {
			_, err := st.PresignPut(ctx, strings.Repeat("k", 1025), "text/plain", 1, time.Minute)
			return err
		}},
		{"empty type", func() error { _, err := st.PresignPut(ctx, "k", "", 1, time.Minute); return err }},
		{"negative cap", func() error { _, err := st.PresignPut(ctx, "k", "text/plain", -1, time.Minute); return err }},
		{"sub-second ttl", func() error { _, err := st.PresignPut(ctx, "k", "text/plain", 1, time.Millisecond); return err }},
		{"file name with CRLF", func() error { _, err := st.PresignGet(ctx, "k", "a\r\nb", time.Minute); return err }},
		{"get with bad key", func() error { _, err := st.PresignGet(ctx, "", "a", time.Minute); return err }},
		{"stat with bad key", func() error { _, err := st.Stat(ctx, ""); return err }},
		{"delete with bad key", func() error { return st.Delete(ctx, "ok", "") }},
	}
	for _, tt := range tests {
		if err := tt.call(); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tt.name, err)
		}
	}
}

// TestPresignedURLsNameThePublicEndpoint: with PublicEndpoint set, uploads
// and downloads are signed for the host clients reach (a published port),
// not the one the service calls (a container network's name).
func TestPresignedURLsNameThePublicEndpoint(t *testing.T) {
	t.Parallel()
	st, err := s3.New(context.Background(), s3.Config{Endpoint: "http://s3:9000", PublicEndpoint: "http://localhost:9000",
		Bucket: "evidence", AccessKey: "ak", SecretKey: "sk", PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	put, err := st.PresignPut(context.Background(), "accounts/a/doc", "application/pdf", 25<<20, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	get, err := st.PresignGet(context.Background(), "accounts/a/doc", "soc2.pdf", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{put.URL, get.URL} {
		if u, err := url.Parse(raw); err != nil || u.Scheme+"://"+u.Host != "http://localhost:9000" || u.Path != "/evidence/accounts/a/doc" {
			t.Errorf("presigned URL %s, want it on http://localhost:9000", raw)
		}
	}
	if _, err := s3.New(context.Background(), s3.Config{Endpoint: "http://s3:9000", PublicEndpoint: "localhost:9000",
		Bucket: "b", AccessKey: "a", SecretKey: "s"}); err == nil {
		t.Error("New accepted a public endpoint that is not an absolute URL")
	}
}
