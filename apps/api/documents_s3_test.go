package api_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
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
	endpoint := os.Getenv("VETTED_TEST_S3_ENDPOINT")
	if endpoint == "" {
		testenv.Unavailable(t, "S3", "VETTED_TEST_S3_ENDPOINT", "this test starts no server (bash .ci/start-s3.sh)")
	}
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

// postForm uploads like a browser form post to an S3 POST policy.
func postForm(t *testing.T, up uploadTicket, fields map[string]string, contentType string, file []byte) int {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if contentType != "" {
		_ = w.WriteField("Content-Type", contentType)
	}
	fw, err := w.CreateFormFile("file", "upload.bin")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(file)
	_ = w.Close()
	res, err := http.Post(up.UploadURL, w.FormDataContentType(), &body)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res.StatusCode
}

func TestDocumentsOnS3(t *testing.T) {
	t.Parallel()
	o := s3Org(t)
	asm := newAssessment(t, o)
	up := uploadURL(t, o, asm, "soc2.pdf", "application/pdf")
	if up.Method != http.MethodPost || len(up.Fields) == 0 {
		t.Fatalf("S3 upload is not a POST policy: %+v", up)
	}
	if docs := documentsOf(t, o, asm); len(docs) != 1 || docs[0]["status"] != "pending" {
		t.Fatalf("before upload: %v", docs)
	}
	// The policy binds the content type: another type is refused by the server.
	fields := map[string]string{}
	for k, v := range up.Fields {
		if !strings.EqualFold(k, "Content-Type") {
			fields[k] = v
		}
	}
	if code := postForm(t, up, fields, "text/html", []byte("<html>")); code < 400 {
		t.Fatalf("upload with another content type: %d", code)
	}
	pdf := []byte("%PDF-1.7 evidence for the auditors")
	if code := postForm(t, up, up.Fields, "", pdf); code >= 300 {
		t.Fatalf("upload: status %d", code)
	}
	docs := documentsOf(t, o, asm)
	if docs[0]["status"] != "uploaded" || int(docs[0]["size_bytes"].(float64)) != len(pdf) {
		t.Fatalf("after upload: %v", docs)
	}
	var dl struct {
		DownloadURL string `json:"download_url"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 200).JSON(t, &dl)
	res, err := http.Get(dl.DownloadURL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != 200 || !bytes.Equal(got, pdf) {
		t.Fatalf("download: %d %q", res.StatusCode, got)
	}
	// A tampered download URL is refused by the server.
	bad := strings.Replace(dl.DownloadURL, "X-Amz-Signature=", "X-Amz-Signature=0", 1)
	if res, err := http.Get(bad); err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("tampered download: %v %v", res.StatusCode, err)
	}
	// Deleting the record deletes the object through the outbox.
	apitest.Must(t, o.env.Do(t, "DELETE", "/vendor-assessments/documents?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 200)
	o.env.Drain(t)
	if res, err := http.Get(dl.DownloadURL); err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("object still served after delete: %v %v", res.StatusCode, err)
	}
}
