package api_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// s3Org is an organization on an app whose evidence store is the S3 server
// named by VETTED_TEST_S3_ENDPOINT (versitygw in CI), in a bucket of its own.
func s3Org(t *testing.T) *org {
	t.Helper()
	return s3OrgVia(t, func(endpoint string) string { return endpoint })
}

// s3OrgVia is s3Org with the app and its URLs reaching the S3 server at the
// endpoint via returns for the real one.
func s3OrgVia(t *testing.T, via func(endpoint string) string) *org {
	t.Helper()
	endpoint := os.Getenv("VETTED_TEST_S3_ENDPOINT")
	if endpoint == "" {
		testenv.Unavailable(t, "S3", "VETTED_TEST_S3_ENDPOINT", "this test starts no server (bash .ci/start-s3.sh)")
	}
	endpoint = via(endpoint)
	key, secret := os.Getenv("VETTED_TEST_S3_ACCESS_KEY"), os.Getenv("VETTED_TEST_S3_SECRET_KEY")
	if key == "" {
		key, secret = "vettedtest", "vettedtestsecret"
	}
	bucket := "vetted-api-" + strings.ReplaceAll(uuid.NewString(), "-", "")[:20]
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) {
		c.S3Endpoint, c.S3Bucket, c.S3Region, c.S3AccessKey, c.S3SecretKey = endpoint, bucket, "us-east-1", key, secret
		c.S3PathStyle, c.S3CreateBucket = true, true
	}))
	o := &org{env: env, vendor: map[string]string{}}
	o.acct = env.NewAccount(t, "Acme", "owner@acme.test")
	o.owner = env.Token("owner@acme.test", apitest.Verified())
	res := env.SaveVendors(t, o.owner, o.acct, "Slack")
	o.master = res["list"].(map[string]any)["id"].(string)
	return o
}

func TestDocumentsOnS3(t *testing.T) {
	t.Parallel()
	o := s3Org(t)
	asm := newAssessment(t, o)
	up := uploadURL(t, o, asm, "soc2.pdf", "application/pdf")
	if up.Method != http.MethodPut || len(up.Fields) != 0 || up.Headers["Content-Type"] != "application/pdf" || up.Headers["If-None-Match"] != "*" {
		t.Fatalf("S3 upload is not a conditional presigned PUT: %+v", up)
	}
	if docs := documentsOf(t, o, asm); len(docs) != 1 || docs[0]["status"] != "pending" {
		t.Fatalf("before upload: %v", docs)
	}
	// The URL binds the content type: another type is refused by the server.
	other := up
	other.Headers = map[string]string{"Content-Type": "text/html", "If-None-Match": "*"}
	if res := put(t, other, strings.NewReader("<html>"), 6); res.StatusCode != http.StatusForbidden {
		t.Fatalf("upload with another content type: %d", res.StatusCode)
	}
	pdf := []byte("%PDF-1.7 evidence for the auditors")
	if res := put(t, up, bytes.NewReader(pdf), int64(len(pdf))); res.StatusCode/100 != 2 {
		t.Fatalf("upload: status %d", res.StatusCode)
	}
	docs := documentsOf(t, o, asm)
	if docs[0]["status"] != "uploaded" || int(docs[0]["size_bytes"].(float64)) != len(pdf) {
		t.Fatalf("after upload: %v", docs)
	}
	dl := downloadURL(t, o, up.DocumentID)
	if status, got := fetch(t, dl); status != 200 || !bytes.Equal(got, pdf) {
		t.Fatalf("download: %d %q", status, got)
	}
	// A tampered download URL is refused by the server.
	bad := strings.Replace(dl, "X-Amz-Signature=", "X-Amz-Signature=0", 1)
	if status, _ := fetch(t, bad); status != http.StatusForbidden {
		t.Fatalf("tampered download: %d", status)
	}
	// An object over the cap (the PUT cannot bind one) is deleted when the
	// service first sees it, and its record stays pending.
	big := uploadURL(t, o, asm, "big.pdf", "application/pdf")
	const limit = 25 << 20
	if res := put(t, big, io.LimitReader(zeros{}, limit+1), limit+1); res.StatusCode/100 != 2 {
		t.Fatalf("oversize upload: %d", res.StatusCode)
	}
	for _, d := range documentsOf(t, o, asm) {
		if d["id"] == big.DocumentID && (d["status"] != "pending" || d["size_bytes"] != 0.0) {
			t.Fatalf("an oversize upload was taken: %v", d)
		}
	}
	mustProblem(t, o.env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+big.DocumentID, o.owner, nil), 409)
}

func TestDocumentIsWrittenOnceOnS3(t *testing.T) {
	t.Parallel()
	checkWriteOnce(t, s3Org(t), http.StatusPreconditionFailed)
}

func TestDeletedDocumentIsGoneAtOnceOnS3(t *testing.T) {
	t.Parallel()
	checkGoneAtOnce(t, s3Org(t))
}

// cuttable is a loopback proxy to the S3 server that can be cut: while down
// it answers 503 to everything, as an unreachable store would to the SDK
// after its retries. It keeps the Host the client signed.
type cuttable struct {
	down atomic.Bool
	rp   *httputil.ReverseProxy
}

func (c *cuttable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if c.down.Load() {
		http.Error(w, "store unreachable", http.StatusServiceUnavailable)
		return
	}
	c.rp.ServeHTTP(w, r)
}

// When the store cannot be reached during the DELETE, the record is still
// removed and no download URL is issued again; a URL issued before may serve
// the file until the outbox deletes it (or the URL expires, 5 minutes),
// which is the window docs/DECISIONS.md states.
func TestDeletedDocumentWhileS3IsUnreachable(t *testing.T) {
	t.Parallel()
	proxy := &cuttable{}
	o := s3OrgVia(t, func(endpoint string) string {
		target, err := url.Parse(endpoint)
		if err != nil {
			t.Fatal(err)
		}
		proxy.rp = &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host
		}}
		srv := httptest.NewServer(proxy)
		t.Cleanup(srv.Close)
		return srv.URL
	})
	asm := newAssessment(t, o)
	up := uploadURL(t, o, asm, "notes.txt", "text/plain")
	content := []byte("confidential evidence")
	if res := put(t, up, bytes.NewReader(content), int64(len(content))); res.StatusCode/100 != 2 {
		t.Fatalf("upload: %d", res.StatusCode)
	}
	dl := downloadURL(t, o, up.DocumentID)

	proxy.down.Store(true)
	apitest.Must(t, o.env.Do(t, "DELETE", "/vendor-assessments/documents?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 200)
	mustProblem(t, o.env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 404)
	if docs := documentsOf(t, o, asm); len(docs) != 0 {
		t.Fatalf("documents after delete: %v", docs)
	}
	proxy.down.Store(false)
	if status, got := fetch(t, dl); status != 200 || !bytes.Equal(got, content) {
		t.Fatalf("URL issued before the delete, store back, outbox not run: %d %q; want the file (the stated window)", status, got)
	}
	o.env.Drain(t)
	if status, _ := fetch(t, dl); status != http.StatusNotFound {
		t.Fatalf("after the outbox ran: %d, want 404", status)
	}
}
