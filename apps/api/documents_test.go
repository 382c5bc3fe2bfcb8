package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// uploadTicket is the answer of upload-url.
type uploadTicket struct {
	DocumentID string            `json:"document_id"`
	UploadURL  string            `json:"upload_url"`
	Method     string            `json:"method"`
	Headers    map[string]string `json:"headers"`
	Fields     map[string]string `json:"fields"`
	ExpiresAt  time.Time         `json:"expires_at"`
}

// newAssessment creates Slack's assessment on master-list and returns its id.
func newAssessment(t *testing.T, o *org) string {
	t.Helper()
	return apitest.Must(t, o.env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack"}), 201).Map(t)["id"].(string)
}

func uploadURL(t *testing.T, o *org, assessment, name, contentType string) uploadTicket {
	t.Helper()
	var up uploadTicket
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/documents/upload-url?account-id="+o.acct+"&vendor-list-id="+o.master+
		"&assessment-id="+assessment+"&file-name="+url.QueryEscape(name)+"&content-type="+url.QueryEscape(contentType), o.owner, nil), 200).JSON(t, &up)
	return up
}

// put sends the file the way a browser or CLI would, with plain net/http
// and no bearer token.
func put(t *testing.T, up uploadTicket, body io.Reader, size int64) *http.Response {
	t.Helper()
	req, err := http.NewRequest(up.Method, up.UploadURL, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	for k, v := range up.Headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res
}

func documentsOf(t *testing.T, o *org, assessment string) []map[string]any {
	t.Helper()
	var out struct {
		Documents []map[string]any `json:"documents"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/documents?account-id="+o.acct+"&assessment-id="+assessment, o.owner, nil), 200).JSON(t, &out)
	return out.Documents
}

func TestDocumentRoundTrip(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	asm := newAssessment(t, o)
	up := uploadURL(t, o, asm, "SOC 2 report.pdf", "application/pdf")
	if up.DocumentID == "" || up.Method != "PUT" || up.Headers["Content-Type"] != "application/pdf" || up.Fields != nil {
		t.Fatalf("upload ticket = %+v", up)
	}
	if d := up.ExpiresAt.Sub(env.Clock.Start()); d < 14*time.Minute || d > 16*time.Minute {
		t.Fatalf("upload URL lives %v, want 15m", d)
	}
	docs := documentsOf(t, o, asm)
	if len(docs) != 1 || docs[0]["status"] != "pending" || docs[0]["size_bytes"] != 0.0 {
		t.Fatalf("before upload: %v", docs)
	}
	// No download before the file exists.
	mustProblem(t, env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 409)

	content := []byte("%PDF-1.7 evidence " + strings.Repeat("x", 1000))
	if res := put(t, up, bytes.NewReader(content), int64(len(content))); res.StatusCode != 200 {
		t.Fatalf("upload: %d", res.StatusCode)
	}
	docs = documentsOf(t, o, asm)
	want := map[string]any{"id": up.DocumentID, "assessment_id": asm, "file_name": "SOC 2 report.pdf", "content_type": "application/pdf",
		"size_bytes": float64(len(content)), "status": "uploaded", "uploaded_by": "owner@acme.test"}
	for k, v := range want {
		if docs[0][k] != v {
			t.Fatalf("document %s = %v, want %v (%v)", k, docs[0][k], v, docs[0])
		}
	}
	var dl struct {
		DocumentID  string    `json:"document_id"`
		DownloadURL string    `json:"download_url"`
		Method      string    `json:"method"`
		ExpiresAt   time.Time `json:"expires_at"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 200).JSON(t, &dl)
	if dl.DocumentID != up.DocumentID || dl.Method != "GET" || dl.ExpiresAt.IsZero() {
		t.Fatalf("download ticket = %+v", dl)
	}
	if d := dl.ExpiresAt.Sub(env.Clock.Start()); d < 4*time.Minute || d > 6*time.Minute {
		t.Fatalf("download URL lives %v, want 5m", d)
	}
	res, err := http.Get(dl.DownloadURL)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != 200 || !bytes.Equal(got, content) || res.Header.Get("Content-Type") != "application/pdf" ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "SOC 2 report.pdf") {
		t.Fatalf("download: %d %v %q", res.StatusCode, res.Header, got[:min(len(got), 40)])
	}

	// Delete: the record and the file at once (the outbox deletes the file
	// too, should the request's delete fail).
	del := apitest.Must(t, env.Do(t, "DELETE", "/vendor-assessments/documents?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 200).Map(t)
	if del["deleted"].(map[string]any)["id"] != up.DocumentID {
		t.Fatalf("deleted = %v", del)
	}
	if docs := documentsOf(t, o, asm); len(docs) != 0 {
		t.Fatalf("after delete: %v", docs)
	}
	env.Drain(t)
	if res := sendRaw(t, env, "GET", dl.DownloadURL, nil, nil); res.Status != 404 {
		t.Fatalf("file still served after delete: %d", res.Status)
	}
	mustProblem(t, env.Do(t, "DELETE", "/vendor-assessments/documents?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 404)
}

func TestDocumentURLRefusals(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	asm := newAssessment(t, o)
	content := []byte("hello")

	// A tampered signature, a widened size cap or another key: 403.
	up := uploadURL(t, o, asm, "notes.txt", "text/plain")
	for name, edit := range map[string]func(url.Values){
		"signature": func(q url.Values) { q.Set("sig", strings.Repeat("A", len(q.Get("sig")))) },
		"cap":       func(q url.Values) { q.Set("max", "999999999999") },
		"key":       func(q url.Values) { q.Set("key", q.Get("key")+"x") },
		"expiry":    func(q url.Values) { q.Set("exp", "99999999999") },
	} {
		u, _ := url.Parse(up.UploadURL)
		q := u.Query()
		edit(q)
		u.RawQuery = q.Encode()
		bad := up
		bad.UploadURL = u.String()
		if res := put(t, bad, bytes.NewReader(content), int64(len(content))); res.StatusCode != 403 {
			t.Fatalf("tampered %s: %d, want 403", name, res.StatusCode)
		}
	}
	// A Content-Type other than the signed one: 403.
	other := up
	other.Headers = map[string]string{"Content-Type": "text/html"}
	if res := put(t, other, bytes.NewReader(content), int64(len(content))); res.StatusCode != 403 {
		t.Fatalf("other content type: %d, want 403", res.StatusCode)
	}
	// Oversize (25 MB + 1): 413, and the record stays pending and empty.
	big := uploadURL(t, o, asm, "big.pdf", "application/pdf")
	const limit = 25 << 20
	if res := put(t, big, io.LimitReader(zeros{}, limit+1), limit+1); res.StatusCode != 413 {
		t.Fatalf("oversize upload: %d, want 413", res.StatusCode)
	}
	// An expired URL: 403.
	late := uploadURL(t, o, asm, "late.txt", "text/plain")
	env.Clock.Advance(16 * time.Minute)
	if res := put(t, late, bytes.NewReader(content), int64(len(content))); res.StatusCode != 403 {
		t.Fatalf("expired upload URL: %d, want 403", res.StatusCode)
	}
	for _, d := range documentsOf(t, o, asm) {
		if d["status"] != "pending" || d["size_bytes"] != 0.0 {
			t.Fatalf("a refused upload landed: %v", d)
		}
	}

	// A tampered or expired download URL: 403.
	ok := uploadURL(t, o, asm, "ok.txt", "text/plain")
	if res := put(t, ok, bytes.NewReader(content), int64(len(content))); res.StatusCode != 200 {
		t.Fatalf("upload: %d", res.StatusCode)
	}
	dl := apitest.Must(t, env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+ok.DocumentID, o.owner, nil), 200).Map(t)["download_url"].(string)
	u, _ := url.Parse(dl)
	q := u.Query()
	q.Set("key", strings.Replace(q.Get("key"), ok.DocumentID, big.DocumentID, 1))
	u.RawQuery = q.Encode()
	if r := sendRaw(t, env, "GET", u.String(), nil, nil); r.Status != 403 {
		t.Fatalf("download with another key: %d, want 403", r.Status)
	}
	env.Clock.Advance(16 * time.Minute)
	if r := sendRaw(t, env, "GET", dl, nil, nil); r.Status != 403 {
		t.Fatalf("expired download URL: %d, want 403", r.Status)
	}
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestDocumentUploadURLValidation(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	asm := newAssessment(t, o)
	base := "/vendor-assessments/documents/upload-url?account-id=" + o.acct + "&assessment-id=" + asm + "&file-name=a.exe"
	mustProblem(t, env.Do(t, "GET", base+"&vendor-list-id="+o.master+"&content-type=application/x-msdownload", o.owner, nil), 422, "content-type", "application/pdf")
	mustProblem(t, env.Do(t, "GET", base+"&content-type=application/pdf", o.owner, nil), 422, "vendor-list")
	// The assessment must be on the named list.
	other := apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&vendor-list=Second", o.owner, nil), 201).Map(t)["id"].(string)
	mustProblem(t, env.Do(t, "GET", base+"&vendor-list-id="+other+"&content-type=application/pdf", o.owner, nil), 404)
	mustProblem(t, env.Do(t, "GET", strings.Replace(base, asm, "0190a8a0-0000-7000-8000-000000000000", 1)+"&vendor-list-id="+o.master+"&content-type=application/pdf", o.owner, nil), 404)
	if docs := documentsOf(t, o, asm); len(docs) != 0 {
		t.Fatalf("refused upload-url calls created %v", docs)
	}
	// Roles: viewers read, members and above ask for upload URLs.
	env.AddMember(t, o.acct, o.owner, "viewer@acme.test", "viewer")
	env.AddMember(t, o.acct, o.owner, "member@acme.test", "member")
	viewer, member := env.Token("viewer@acme.test"), env.Token("member@acme.test")
	good := strings.Replace(base, "a.exe", "a.pdf", 1) + "&vendor-list-id=" + o.master + "&content-type=application/pdf"
	mustProblem(t, env.Do(t, "GET", good, viewer, nil), 403)
	up := apitest.Must(t, env.Do(t, "GET", good, member, nil), 200).Map(t)
	apitest.Must(t, env.Do(t, "GET", "/vendor-assessments/documents?account-id="+o.acct+"&assessment-id="+asm, viewer, nil), 200)
	mustProblem(t, env.Do(t, "DELETE", "/vendor-assessments/documents?account-id="+o.acct+"&document-id="+up["document_id"].(string), viewer, nil), 403)
	mustProblem(t, env.Do(t, "GET", "/vendor-assessments/documents?account-id="+o.acct+"&assessment-id="+asm, env.Token("stranger@else.test"), nil), 403)
}

// downloadURL asks for a document's download URL.
func downloadURL(t *testing.T, o *org, documentID string) string {
	t.Helper()
	var dl struct {
		DownloadURL string `json:"download_url"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+documentID, o.owner, nil), 200).JSON(t, &dl)
	return dl.DownloadURL
}

// fetch GETs a presigned download URL with plain net/http.
func fetch(t *testing.T, u string) (int, []byte) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// checkWriteOnce uploads a file, then another with the same URL, which the
// blob store must refuse with status refused; the first file comes back
// unchanged, the record keeps its size and SHA-256, and the audit log
// records the upload once.
func checkWriteOnce(t *testing.T, o *org, refused int) {
	t.Helper()
	asm := newAssessment(t, o)
	up := uploadURL(t, o, asm, "SOC 2 report.pdf", "application/pdf")
	first, second := []byte("%PDF-1.7 the auditors' copy"), []byte("%PDF-1.7 a forged replacement, longer")
	if res := put(t, up, bytes.NewReader(first), int64(len(first))); res.StatusCode/100 != 2 {
		t.Fatalf("first upload: %d", res.StatusCode)
	}
	if res := put(t, up, bytes.NewReader(second), int64(len(second))); res.StatusCode != refused {
		t.Fatalf("second upload with the same URL: %d, want %d", res.StatusCode, refused)
	}
	sum := sha256.Sum256(first)
	docs := documentsOf(t, o, asm)
	if len(docs) != 1 || docs[0]["status"] != "uploaded" || docs[0]["size_bytes"] != float64(len(first)) || docs[0]["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("document = %v; want uploaded, %d bytes, sha256 %x", docs, len(first), sum)
	}
	if res := put(t, up, bytes.NewReader(second), int64(len(second))); res.StatusCode != refused {
		t.Fatalf("upload after the record turned uploaded: %d, want %d", res.StatusCode, refused)
	}
	if status, got := fetch(t, downloadURL(t, o, up.DocumentID)); status != 200 || !bytes.Equal(got, first) {
		t.Fatalf("download: %d %q; want the first file", status, got)
	}
	// A second look reads the stored record, and records nothing more.
	if docs := documentsOf(t, o, asm); docs[0]["sha256"] != hex.EncodeToString(sum[:]) || docs[0]["size_bytes"] != float64(len(first)) {
		t.Fatalf("stored document = %v; want %d bytes, sha256 %x", docs[0], len(first), sum)
	}
	var log struct {
		Events []struct {
			SubmittedBy string `json:"submitted_by"`
			Changes     []struct {
				Field    string `json:"field"`
				OldValue string `json:"old_value"`
				NewValue string `json:"new_value"`
			} `json:"changes"`
		} `json:"events"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+asm, o.owner, nil), 200).JSON(t, &log)
	var uploads []string
	for _, e := range log.Events {
		for _, c := range e.Changes {
			if c.Field == "document" {
				uploads = append(uploads, e.SubmittedBy+": "+c.OldValue+" -> "+c.NewValue)
			}
		}
	}
	want := fmt.Sprintf("owner@acme.test:  -> SOC 2 report.pdf (id %s, %d bytes, sha256 %x)", up.DocumentID, len(first), sum)
	if len(uploads) != 1 || uploads[0] != want {
		t.Fatalf("audit log records %q, want [%q]", uploads, want)
	}
}

// checkGoneAtOnce deletes an uploaded document and expects its download URL,
// issued before the delete, to answer 404 as soon as the DELETE has answered,
// with the outbox not yet run, and no new URL to be issued.
func checkGoneAtOnce(t *testing.T, o *org) {
	t.Helper()
	asm := newAssessment(t, o)
	up := uploadURL(t, o, asm, "notes.txt", "text/plain")
	content := []byte("confidential evidence")
	if res := put(t, up, bytes.NewReader(content), int64(len(content))); res.StatusCode/100 != 2 {
		t.Fatalf("upload: %d", res.StatusCode)
	}
	dl := downloadURL(t, o, up.DocumentID)
	if status, got := fetch(t, dl); status != 200 || !bytes.Equal(got, content) {
		t.Fatalf("download before delete: %d %q", status, got)
	}
	apitest.Must(t, o.env.Do(t, "DELETE", "/vendor-assessments/documents?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 200)
	if status, got := fetch(t, dl); status != http.StatusNotFound || bytes.Contains(got, content) {
		t.Fatalf("download URL issued before the delete: %d %q, want 404 at once", status, got)
	}
	mustProblem(t, o.env.Do(t, "GET", "/vendor-assessments/documents/download-url?account-id="+o.acct+"&document-id="+up.DocumentID, o.owner, nil), 404)
	o.env.Drain(t) // the outbox's delete of a file already gone is harmless
	if status, _ := fetch(t, dl); status != http.StatusNotFound {
		t.Fatalf("download after the outbox ran: %d, want 404", status)
	}
}

func TestDocumentIsWrittenOnce(t *testing.T) {
	t.Parallel()
	checkWriteOnce(t, newOrg(t), http.StatusConflict)
}

func TestDeletedDocumentIsGoneAtOnce(t *testing.T) {
	t.Parallel()
	checkGoneAtOnce(t, newOrg(t))
}
