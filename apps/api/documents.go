package api

import (
	"context"
	"time"

	"github.com/vetted-dev/vetted/core/assessments"
)

// DocumentJSON is an evidence document attached to an assessment.
type DocumentJSON struct {
	ID           string         `json:"id" format:"uuid"`
	AssessmentID string         `json:"assessment_id" format:"uuid"`
	FileName     string         `json:"file_name"`
	ContentType  string         `json:"content_type"`
	SizeBytes    int64          `json:"size_bytes" doc:"Size of the stored file; 0 while pending"`
	SHA256       string         `json:"sha256" doc:"Hex SHA-256 of the stored file, recorded when it turned uploaded; empty while pending"`
	Status       DocumentStatus `json:"status"`
	UploadedBy   string         `json:"uploaded_by"`
	CreatedAt    time.Time      `json:"created_at"`
}

func documentJSON(d assessments.Document) DocumentJSON {
	return DocumentJSON{ID: d.ID.String(), AssessmentID: d.AssessmentID.String(), FileName: d.FileName, ContentType: d.ContentType,
		SizeBytes: d.SizeBytes, SHA256: d.SHA256, Status: DocumentStatus(d.Status), UploadedBy: d.UploadedBy, CreatedAt: d.CreatedAt}
}

type documentsIn struct {
	AccountParam
	AssessmentParam
}

type documentsOut struct {
	Body struct {
		Documents []DocumentJSON `json:"documents"`
	}
}

type uploadURLIn struct {
	AccountParam
	ListParams
	AssessmentParam
	FileName    string `query:"file-name" required:"true" doc:"File name shown on download"`
	ContentType string `query:"content-type" required:"true" doc:"MIME type; the upload must send exactly this Content-Type"`
}

type uploadURLOut struct {
	Body struct {
		DocumentID string            `json:"document_id" format:"uuid"`
		UploadURL  string            `json:"upload_url"`
		Method     string            `json:"method" doc:"PUT, or POST for a form upload with fields"`
		Headers    map[string]string `json:"headers" doc:"Headers the upload must carry"`
		Fields     map[string]string `json:"fields,omitempty" doc:"Form fields to send before the file part named file (POST uploads only)"`
		ExpiresAt  time.Time         `json:"expires_at"`
	}
}

type documentRefIn struct {
	AccountParam
	DocumentParam
}

type downloadURLOut struct {
	Body struct {
		DocumentID  string    `json:"document_id" format:"uuid"`
		DownloadURL string    `json:"download_url"`
		Method      string    `json:"method"`
		ExpiresAt   time.Time `json:"expires_at"`
	}
}

type documentDeleteOut struct {
	Body struct {
		Deleted DocumentJSON `json:"deleted"`
	}
}

// listDocuments answers list-documents.
func (h assessmentsHandler) listDocuments(ctx context.Context, in *documentsIn) (*documentsOut, error) {
	acc, aid, err := accountAnd(in.AccountParam, in.assessmentID)
	if err != nil {
		return nil, err
	}
	ds, err := h.assessments.Documents(ctx, actor(ctx), acc, aid)
	if err != nil {
		return nil, err
	}
	out := &documentsOut{}
	out.Body.Documents = make([]DocumentJSON, 0, len(ds))
	for _, d := range ds {
		out.Body.Documents = append(out.Body.Documents, documentJSON(d))
	}
	return out, nil
}

// uploadURL answers get-document-upload-url.
func (h assessmentsHandler) uploadURL(ctx context.Context, in *uploadURLIn) (*uploadURLOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	aid, err := in.assessmentID()
	if err != nil {
		return nil, err
	}
	up, err := h.assessments.UploadURL(ctx, actor(ctx), acc, lr, aid, in.FileName, in.ContentType)
	if err != nil {
		return nil, err
	}
	out := &uploadURLOut{}
	out.Body.DocumentID, out.Body.UploadURL, out.Body.Method = up.Document.ID.String(), up.Request.URL, up.Request.Method
	out.Body.Headers, out.Body.ExpiresAt = up.Request.Headers, up.Request.ExpiresAt
	if out.Body.Headers == nil {
		out.Body.Headers = map[string]string{}
	}
	if len(up.Request.Fields) > 0 {
		out.Body.Fields = up.Request.Fields
	}
	return out, nil
}

// downloadURL answers get-document-download-url.
func (h assessmentsHandler) downloadURL(ctx context.Context, in *documentRefIn) (*downloadURLOut, error) {
	acc, did, err := accountAnd(in.AccountParam, in.documentID)
	if err != nil {
		return nil, err
	}
	d, req, err := h.assessments.DownloadURL(ctx, actor(ctx), acc, did)
	if err != nil {
		return nil, err
	}
	out := &downloadURLOut{}
	out.Body.DocumentID, out.Body.DownloadURL, out.Body.Method, out.Body.ExpiresAt = d.ID.String(), req.URL, req.Method, req.ExpiresAt
	return out, nil
}

// deleteDocument answers delete-document.
func (h assessmentsHandler) deleteDocument(ctx context.Context, in *documentRefIn) (*documentDeleteOut, error) {
	acc, did, err := accountAnd(in.AccountParam, in.documentID)
	if err != nil {
		return nil, err
	}
	d, err := h.assessments.DeleteDocument(ctx, actor(ctx), acc, did)
	if err != nil {
		return nil, err
	}
	out := &documentDeleteOut{}
	out.Body.Deleted = documentJSON(d)
	return out, nil
}
