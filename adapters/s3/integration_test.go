package s3_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/vetted-dev/vetted/adapters/internal/dockerprobe"
	"github.com/vetted-dev/vetted/adapters/s3"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports"
)

// Integration tests run against a real S3-compatible server: the one at
// VETTED_TEST_S3_ENDPOINT (versitygw from .ci/start-s3.sh; credentials from
// VETTED_TEST_S3_ACCESS_KEY / VETTED_TEST_S3_SECRET_KEY, default
// vettedtest / vettedtestsecret), else a MinIO container if Docker answers,
// else they skip, or fail under CI=true. Each test uses its own bucket.

const (
	defaultAccessKey = "vettedtest"
	defaultSecretKey = "vettedtestsecret"
	minioImage       = "minio/minio:RELEASE.2025-04-22T22-12-26Z"
)

func server(t *testing.T) s3.Config {
	t.Helper()
	cfg := s3.Config{
		Endpoint:  os.Getenv("VETTED_TEST_S3_ENDPOINT"),
		Region:    "us-east-1",
		AccessKey: cmp.Or(os.Getenv("VETTED_TEST_S3_ACCESS_KEY"), defaultAccessKey),
		SecretKey: cmp.Or(os.Getenv("VETTED_TEST_S3_SECRET_KEY"), defaultSecretKey),
		PathStyle: true,
	}
	if cfg.Endpoint != "" {
		return cfg
	}
	if dockerprobe.Healthy() != nil {
		testenv.Unavailable(t, "S3", "VETTED_TEST_S3_ENDPOINT", "Docker is not available (run .ci/start-s3.sh)")
	}
	ctx := context.Background()
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        minioImage,
			Cmd:          []string{"server", "/data"},
			Env:          map[string]string{"MINIO_ROOT_USER": cfg.AccessKey, "MINIO_ROOT_PASSWORD": cfg.SecretKey},
			ExposedPorts: []string{"9000/tcp"},
			WaitingFor:   wait.ForHTTP("/minio/health/ready").WithPort("9000/tcp").WithStartupTimeout(2 * time.Minute),
		},
		Started: true,
	})
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatalf("start MinIO container: %v", err)
	}
	ep, err := c.PortEndpoint(ctx, "9000/tcp", "http")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Endpoint = ep
	return cfg
}

var notBucketChar = regexp.MustCompile(`[^a-z0-9-]+`)

// newStore makes a store on a fresh bucket named after the test and removes
// the bucket with everything in it when the test ends.
func newStore(t *testing.T) *s3.Store {
	t.Helper()
	return openStore(t, bucketConfig(t))
}

// bucketConfig is the server's configuration with a fresh bucket named
// after the test, created by the first store opened with it and removed
// with everything in it when the test ends.
func bucketConfig(t *testing.T) s3.Config {
	t.Helper()
	cfg := server(t)
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := strings.Trim(notBucketChar.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	cfg.Bucket = "vt-" + name[:min(len(name), 40)] + "-" + hex.EncodeToString(b[:])
	cfg.CreateBucket = true
	t.Cleanup(func() { dropBucket(t, cfg) })
	return cfg
}

func openStore(t *testing.T, cfg s3.Config) *s3.Store {
	t.Helper()
	ctx := context.Background()
	st, err := s3.New(ctx, cfg)
	if err != nil {
		t.Fatalf("New against %s: %v", cfg.Endpoint, err)
	}
	if err := st.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}

func dropBucket(t *testing.T, cfg s3.Config) {
	c := awss3.New(awss3.Options{
		Region: cfg.Region, BaseEndpoint: &cfg.Endpoint, UsePathStyle: true,
		Credentials:                credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, ""),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
	})
	ctx := context.Background()
	list, err := c.ListObjectsV2(ctx, &awss3.ListObjectsV2Input{Bucket: &cfg.Bucket})
	if err != nil {
		t.Logf("cleanup: list %s: %v", cfg.Bucket, err)
		return
	}
	for _, o := range list.Contents {
		_, _ = c.DeleteObject(ctx, &awss3.DeleteObjectInput{Bucket: &cfg.Bucket, Key: o.Key})
	}
	if _, err := c.DeleteBucket(ctx, &awss3.DeleteBucketInput{Bucket: &cfg.Bucket}); err != nil {
		t.Logf("cleanup: delete bucket %s: %v", cfg.Bucket, err)
	}
}

// upload sends a presigned PUT with its headers, as a browser or CLI would.
func upload(t *testing.T, req ports.PresignedRequest, body []byte) (int, string) {
	t.Helper()
	resp, b := send(t, req, req.URL, "", bytes.NewReader(body))
	return resp.StatusCode, string(b)
}

func get(t *testing.T, req ports.PresignedRequest, rawURL string) (*http.Response, []byte) {
	t.Helper()
	return send(t, req, rawURL, "", nil)
}

// send makes req's request to rawURL with its headers and returns the
// answer with its body read.
func send(t *testing.T, req ports.PresignedRequest, rawURL, contentType string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	hreq, err := http.NewRequest(req.Method, rawURL, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		hreq.Header.Set("Content-Type", contentType)
	}
	for k, v := range req.Headers {
		hreq.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestRoundTripThroughPresignedRequests(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	const key = "accounts/a1/assessments/b2/c3"
	body := bytes.Repeat([]byte("evidence "), 500)

	if _, err := st.Stat(ctx, key); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("Stat before upload = %v, want ErrNotFound", err)
	}
	put, err := st.PresignPut(ctx, key, "application/pdf", int64(len(body)), 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if status, msg := upload(t, put, body); status/100 != 2 {
		t.Fatalf("upload = %d %s", status, msg)
	}
	size, err := st.Stat(ctx, key)
	if err != nil || size != int64(len(body)) {
		t.Fatalf("Stat = %d, %v; want %d", size, err, len(body))
	}

	dl, err := st.PresignGet(ctx, key, "SOC 2 Bericht ü.pdf", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	resp, got := get(t, dl, dl.URL)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, body) {
		t.Fatalf("download = %d, %d bytes; want 200, %d bytes", resp.StatusCode, len(got), len(body))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("Content-Type = %q", ct)
	}
	disp, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if err != nil || disp != "attachment" || params["filename"] != "SOC 2 Bericht ü.pdf" {
		t.Errorf("Content-Disposition = %q", resp.Header.Get("Content-Disposition"))
	}

	if err := st.Delete(ctx, key, "accounts/never/uploaded"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Stat(ctx, key); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("Stat after delete = %v, want ErrNotFound", err)
	}
	if err := st.Delete(ctx); err != nil {
		t.Fatalf("Delete of nothing: %v", err)
	}
}

// TestUploadThroughThePublicEndpoint: the store called at one address and
// reached by clients at another (127.0.0.1 and localhost here, as s3:9000
// and localhost:9000 in deploy/compose.yaml) signs URLs the server accepts
// at the client's address, and sees the object at its own.
func TestUploadThroughThePublicEndpoint(t *testing.T) {
	t.Parallel()
	cfg := server(t)
	u, err := url.Parse(cfg.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	alias := map[string]string{"127.0.0.1": "localhost", "localhost": "127.0.0.1"}[u.Hostname()]
	if alias == "" {
		t.Skipf("no second name known for the S3 host %s", u.Hostname())
	}
	bcfg := bucketConfig(t)
	st := openStore(t, bcfg)
	bcfg.PublicEndpoint = u.Scheme + "://" + alias + ":" + u.Port()
	public := openStore(t, bcfg)
	ctx := context.Background()
	const key = "accounts/a1/assessments/b2/public"
	body := []byte("evidence through the published port")
	put, err := public.PresignPut(ctx, key, "application/pdf", int64(len(body)), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if pu, _ := url.Parse(put.URL); pu.Hostname() != alias {
		t.Fatalf("upload URL %s does not name %s", put.URL, alias)
	}
	if status, msg := upload(t, put, body); status/100 != 2 {
		t.Fatalf("upload through %s = %d %s", alias, status, msg)
	}
	if size, err := st.Stat(ctx, key); err != nil || size != int64(len(body)) {
		t.Fatalf("Stat at %s = %d, %v; want %d", cfg.Endpoint, size, err, len(body))
	}
	dl, err := public.PresignGet(ctx, key, "soc2.pdf", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if resp, got := get(t, dl, dl.URL); resp.StatusCode != http.StatusOK || !bytes.Equal(got, body) {
		t.Fatalf("download through %s = %d %q", alias, resp.StatusCode, got)
	}
}

func TestUploadRefusedByServer(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	const (
		key = "accounts/a/doc"
		ct  = "application/pdf"
	)
	small := bytes.Repeat([]byte("x"), 100)
	tests := []struct {
		name string
		ttl  time.Duration
		wait time.Duration
		edit func(r *ports.PresignedRequest)
		want int
		code string // S3 error code in the answer
	}{
		{name: "tampered signature", want: http.StatusForbidden, code: "SignatureDoesNotMatch",
			edit: func(r *ports.PresignedRequest) {
				r.URL = setQuery(t, r.URL, "X-Amz-Signature", strings.Repeat("0", 64))
			}},
		{name: "longer lifetime", want: http.StatusForbidden, code: "SignatureDoesNotMatch",
			edit: func(r *ports.PresignedRequest) { r.URL = setQuery(t, r.URL, "X-Amz-Expires", "604800") }},
		{name: "wrong content type", want: http.StatusForbidden, code: "SignatureDoesNotMatch",
			edit: func(r *ports.PresignedRequest) { r.Headers["Content-Type"] = "text/html" }},
		{name: "no If-None-Match", want: http.StatusForbidden, code: "SignatureDoesNotMatch",
			edit: func(r *ports.PresignedRequest) { delete(r.Headers, "If-None-Match") }},
		{name: "other key", want: http.StatusForbidden, code: "SignatureDoesNotMatch",
			edit: func(r *ports.PresignedRequest) { r.URL = strings.Replace(r.URL, "/accounts/a/", "/accounts/b/", 1) }},
		{name: "expired", ttl: time.Second, wait: 2500 * time.Millisecond, want: http.StatusForbidden, code: "AccessDenied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			k := key + "-" + notBucketChar.ReplaceAllString(tt.name, "-")
			put, err := st.PresignPut(context.Background(), k, ct, 1024, cmp.Or(tt.ttl, 15*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(tt.wait)
			req := put
			req.Headers = maps.Clone(put.Headers)
			if tt.edit != nil {
				tt.edit(&req)
			}
			status, msg := upload(t, req, small)
			if status != tt.want || !strings.Contains(msg, "<Code>"+tt.code+"</Code>") {
				t.Errorf("status = %d %s; want %d %s", status, msg, tt.want, tt.code)
			}
			for _, key := range []string{k, strings.Replace(k, "accounts/a/", "accounts/b/", 1)} {
				if _, err := st.Stat(context.Background(), key); !errors.Is(err, core.ErrNotFound) {
					t.Errorf("refused upload left %s: %v", key, err)
				}
			}
		})
	}
	// The same request unmodified is accepted, so each refusal above is due
	// to its one change.
	put, err := st.PresignPut(context.Background(), key, ct, 1024, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if status, msg := upload(t, put, small); status/100 != 2 {
		t.Fatalf("upload = %d %s", status, msg)
	}
}

// An upload URL stores one object: a second upload with it, or with another
// URL for the same key, is refused and the first file stays as it was.
func TestUploadIsWrittenOnce(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	const key = "accounts/a/assessments/b/evidence"
	first, second := []byte("%PDF-1.7 the auditors' copy"), []byte("%PDF-1.7 a forged replacement, longer")
	put, err := st.PresignPut(ctx, key, "application/pdf", 1024, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if status, msg := upload(t, put, first); status/100 != 2 {
		t.Fatalf("first upload = %d %s", status, msg)
	}
	again, err := st.PresignPut(ctx, key, "application/pdf", 1024, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for name, req := range map[string]ports.PresignedRequest{"same URL": put, "new URL": again} {
		if status, msg := upload(t, req, second); status != http.StatusPreconditionFailed || !strings.Contains(msg, "<Code>PreconditionFailed</Code>") {
			t.Errorf("second upload with the %s = %d %s; want 412 PreconditionFailed", name, status, msg)
		}
	}
	dl, err := st.PresignGet(ctx, key, "evidence.pdf", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if resp, got := get(t, dl, dl.URL); resp.StatusCode != http.StatusOK || !bytes.Equal(got, first) {
		t.Fatalf("download = %d %q; want the first file", resp.StatusCode, got)
	}
	sum := sha256.Sum256(first)
	if d, err := st.Digest(ctx, key); err != nil || d.Size != int64(len(first)) || d.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("Digest = %+v, %v; want %d bytes, %x", d, err, len(first), sum)
	}
	if _, err := st.Digest(ctx, key+"-missing"); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("Digest of a missing key = %v, want ErrNotFound", err)
	}
	// Once deleted, its download URL answers 404 at once.
	if err := st.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if resp, _ := get(t, dl, dl.URL); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("download after delete = %d, want 404", resp.StatusCode)
	}
}

func setQuery(t *testing.T, raw, name, value string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}

func TestDownloadRefusedByServer(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	const key = "accounts/a/secret"
	put, err := st.PresignPut(ctx, key, "text/plain", 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if status, msg := upload(t, put, []byte("top secret")); status/100 != 2 {
		t.Fatalf("upload = %d %s", status, msg)
	}
	tests := []struct {
		name string
		ttl  time.Duration
		wait time.Duration
		edit func(q url.Values)
	}{
		{name: "tampered signature", edit: func(q url.Values) { q.Set("X-Amz-Signature", strings.Repeat("0", 64)) }},
		{name: "other file name", edit: func(q url.Values) { q.Set("response-content-disposition", "inline") }},
		{name: "longer lifetime", edit: func(q url.Values) { q.Set("X-Amz-Expires", "604800") }},
		{name: "expired", ttl: time.Second, wait: 2500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dl, err := st.PresignGet(ctx, key, "secret.txt", cmp.Or(tt.ttl, time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(tt.wait)
			u, _ := url.Parse(dl.URL)
			if tt.edit != nil {
				q := u.Query()
				tt.edit(q)
				u.RawQuery = q.Encode()
			}
			resp, body := get(t, dl, u.String())
			if resp.StatusCode != http.StatusForbidden || bytes.Contains(body, []byte("top secret")) {
				t.Fatalf("status = %d %s; want 403", resp.StatusCode, body)
			}
		})
	}
}

func TestDeleteMany(t *testing.T) {
	t.Parallel()
	st := newStore(t)
	ctx := context.Background()
	keys := []string{"a/1", "a/2", "b/3"}
	for _, k := range keys {
		put, err := st.PresignPut(ctx, k, "text/csv", 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if status, msg := upload(t, put, []byte("v,1")); status/100 != 2 {
			t.Fatalf("upload %s = %d %s", k, status, msg)
		}
	}
	if err := st.Delete(ctx, append(keys, "a/missing")...); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if _, err := st.Stat(ctx, k); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("Stat(%s) after delete = %v", k, err)
		}
	}
}

func TestCreateBucketIsIdempotent(t *testing.T) {
	t.Parallel()
	cfg := server(t)
	var b [4]byte
	_, _ = rand.Read(b[:])
	cfg.Bucket, cfg.CreateBucket = "vt-idempotent-"+hex.EncodeToString(b[:]), true
	created := cfg
	t.Cleanup(func() { dropBucket(t, created) })
	for range 2 {
		if _, err := s3.New(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Bucket, cfg.CreateBucket = "vt-absent-"+hex.EncodeToString(b[:]), false
	st, err := s3.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Ping(context.Background()); err == nil {
		t.Fatal("Ping of a missing bucket succeeded")
	}
}
