package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/document"
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

func documentJSON(d document.Document) DocumentJSON {
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

func (s *Server) registerDocuments() {
	tags := []string{"Evidence documents"}
	register(s.api, huma.Operation{OperationID: "list-documents", Method: http.MethodGet, Path: "/vendor-assessments/documents", Tags: tags,
		Summary: "The documents of an assessment (viewer or above)", Security: secured, Errors: accountErrors},
		func(ctx context.Context, in *documentsIn) (*documentsOut, error) {
			acc, aid, err := accountAnd(in.AccountParam, in.assessmentID)
			if err != nil {
				return nil, err
			}
			ds, err := s.assessments.Documents(ctx, actor(ctx), acc, aid)
			if err != nil {
				return nil, err
			}
			out := &documentsOut{}
			out.Body.Documents = make([]DocumentJSON, 0, len(ds))
			for _, d := range ds {
				out.Body.Documents = append(out.Body.Documents, documentJSON(d))
			}
			return out, nil
		})
	register(s.api, huma.Operation{OperationID: "get-document-upload-url", Method: http.MethodGet, Path: "/vendor-assessments/documents/upload-url", Tags: tags,
		Summary: "A presigned upload for a new document (member or above)",
		Description: "Send the file to upload_url with method and headers before expires_at (15 minutes). The URL stores one file, once: " +
			"a second upload to it is refused (409 on the embedded store, 412 on S3) and the first file stays as it was. " +
			"The signed request binds the content type; the 25 MB cap is enforced by the embedded store as the file arrives and, on S3, " +
			"when the service first sees the file (a larger one is deleted and the document stays pending). " +
			"Once stored, the document records the file's size and SHA-256 and the assessment's audit log records the upload.",
		Security: secured, Errors: accountErrors},
		func(ctx context.Context, in *uploadURLIn) (*uploadURLOut, error) {
			acc, lr, err := refs(in.AccountParam, in.ListParams)
			if err != nil {
				return nil, err
			}
			aid, err := in.assessmentID()
			if err != nil {
				return nil, err
			}
			up, err := s.assessments.UploadURL(ctx, actor(ctx), acc, lr, aid, in.FileName, in.ContentType)
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
		})
	register(s.api, huma.Operation{OperationID: "get-document-download-url", Method: http.MethodGet, Path: "/vendor-assessments/documents/download-url", Tags: tags,
		Summary:     "A presigned download URL of an uploaded document (viewer or above)",
		Description: "The URL is valid for 5 minutes. It answers 404 once the document is deleted.",
		Security:    secured, Errors: accountErrors},
		func(ctx context.Context, in *documentRefIn) (*downloadURLOut, error) {
			acc, did, err := accountAnd(in.AccountParam, in.documentID)
			if err != nil {
				return nil, err
			}
			d, req, err := s.assessments.DownloadURL(ctx, actor(ctx), acc, did)
			if err != nil {
				return nil, err
			}
			out := &downloadURLOut{}
			out.Body.DocumentID, out.Body.DownloadURL, out.Body.Method, out.Body.ExpiresAt = d.ID.String(), req.URL, req.Method, req.ExpiresAt
			return out, nil
		})
	register(s.api, huma.Operation{OperationID: "delete-document", Method: http.MethodDelete, Path: "/vendor-assessments/documents", Tags: tags,
		Summary: "Remove a document and its file (member or above)",
		Description: "The file is deleted before the answer, so download URLs issued earlier answer 404 from then on " +
			"(if the file store cannot be reached, the file is deleted later and no URL is issued for it again). The audit log records the removal.",
		Security: secured, Errors: accountErrors},
		func(ctx context.Context, in *documentRefIn) (*documentDeleteOut, error) {
			acc, did, err := accountAnd(in.AccountParam, in.documentID)
			if err != nil {
				return nil, err
			}
			d, err := s.assessments.DeleteDocument(ctx, actor(ctx), acc, did)
			if err != nil {
				return nil, err
			}
			out := &documentDeleteOut{}
			out.Body.Deleted = documentJSON(d)
			return out, nil
		})
}
