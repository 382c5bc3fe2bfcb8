package api

import (
	"context"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
)

// ExportColumns are the columns of the register export, in order. The
// condition of a conditional approval is the last one, so that the file
// imports back through import-csv unchanged.
var ExportColumns = []string{"vendor_name", "website_url", "product_name", "tier", "compliance_approval_status",
	"next_review_at", "review_state", "rating", "grade", "sponsor", "alerts_enabled", "conditional_approval_condition"}

type exportIn struct {
	AccountParam
	ListParams
	Format string `query:"format" enum:"csv" default:"csv" doc:"csv (text/csv, one row per vendor and product)"`
}

func exportRecord(r assessments.ExportRow) []string {
	next, rating := "", ""
	if !r.Due.NextReviewAt.IsZero() {
		next = r.Due.NextReviewAt.UTC().Format(time.RFC3339)
	}
	if r.Rating != nil {
		rating = strconv.Itoa(*r.Rating)
	}
	// A cell a spreadsheet would run as a formula is written as text.
	return lists.NeutralizeRecord([]string{r.VendorName, r.WebsiteURL, r.ProductName, string(r.Tier), string(r.Status), next,
		string(r.Due.State), rating, r.Grade, r.Sponsor, strconv.FormatBool(r.AlertsEnabled), r.Condition})
}

// exportList answers export-vendor-list.
func (h assessmentsHandler) exportList(ctx context.Context, in *exportIn) (*huma.StreamResponse, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	ex, err := h.assessments.OpenExport(ctx, actor(ctx), acc, lr)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "text/csv; charset=utf-8")
		hctx.SetHeader("Content-Disposition", `attachment; filename="`+ex.List().ID.String()+`.csv"`)
		w := csv.NewWriter(hctx.BodyWriter())
		_ = w.Write(ExportColumns)
		err := ex.Each(ctx, func(r assessments.ExportRow) error { return w.Write(exportRecord(r)) })
		w.Flush()
		if err == nil {
			err = w.Error()
		}
		if err != nil {
			// The status is sent: the file ends short, and the log says why.
			logger(ctx).WarnContext(ctx, "export ended early", "err", err)
		}
	}}, nil
}
