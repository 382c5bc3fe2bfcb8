package s3_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
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

func TestPresignPutBindsTypeAndSize(t *testing.T) {
	t.Parallel()
	st := offline(t)
	before := time.Now()
	req, err := st.PresignPut(context.Background(), "accounts/a/doc", "application/pdf", 25<<20, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != http.MethodPost || req.URL != "http://127.0.0.1:1/evidence" {
		t.Fatalf("method %s url %s", req.Method, req.URL)
	}
	for _, f := range []string{"key", "policy", "Content-Type", "X-Amz-Signature", "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date"} {
		if req.Fields[f] == "" {
			t.Errorf("field %s missing: %v", f, req.Fields)
		}
	}
	if req.Fields["key"] != "accounts/a/doc" || req.Fields["Content-Type"] != "application/pdf" {
		t.Errorf("fields = %v", req.Fields)
	}
	if d := req.ExpiresAt.Sub(before); d < 15*time.Minute-time.Second || d > 15*time.Minute+time.Second {
		t.Errorf("ExpiresAt %v is not 15 minutes ahead", req.ExpiresAt)
	}
	raw, err := base64.StdEncoding.DecodeString(req.Fields["policy"])
	if err != nil {
		t.Fatal(err)
	}
	var policy struct {
		Expiration string `json:"expiration"`
		Conditions []any  `json:"conditions"`
	}
	if err := json.Unmarshal(raw, &policy); err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, want := range []string{`["eq","$Content-Type","application/pdf"]`, `["content-length-range",0,26214400]`, `{"key":"accounts/a/doc"}`, `{"bucket":"evidence"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("policy lacks %s: %s", want, text)
		}
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
