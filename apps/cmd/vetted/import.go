package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/apps/csvimport"
)

// The variables `vetted import` reads when --base and --token are not given.
const (
	envAPIURL = "VETTED_API_URL"
	envToken  = "VETTED_TOKEN"
)

func importEnvVars() []app.EnvVar {
	return []app.EnvVar{
		{Name: envAPIURL, Default: "http://127.0.0.1:8080", Meaning: "API base URL (--base)"},
		{Name: envToken, Meaning: "bearer token (--token)"},
	}
}

func importCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	file := fs.String("file", "", "CSV file: a header row with vendor_name, then one row per vendor or product (required)")
	account := fs.String("account", "", "account id, or individual (required)")
	list := fs.String("list", "master-list", "list name or id")
	dryRun := fs.Bool("dry-run", false, "validate and count without writing; bad cells are listed")
	fromRow := fs.Int("from-row", 0, "skip the first N data rows (resume an import that stopped)")
	base := fs.String("base", "", "API base URL (default $"+envAPIURL+", else http://127.0.0.1:8080)")
	token := fs.String("token", "", "bearer token (default $"+envToken+")")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress bar")
	return func(ctx context.Context) error {
		if *file == "" || *account == "" {
			return usageError{errors.New("import: --file and --account are required")}
		}
		o := csvimport.Options{File: *file, BaseURL: firstOf(*base, e.get(envAPIURL), "http://127.0.0.1:8080"),
			Token: firstOf(*token, e.get(envToken)), Account: *account, List: *list, DryRun: *dryRun, FromRow: *fromRow}
		if o.Token == "" {
			return usageError{fmt.Errorf("import: give --token or set %s", envToken)}
		}
		if !*quiet {
			// A bar of known length: progressbar's spinner mode (unknown
			// length) renders from a goroutine of its own without locking.
			total, err := csvimport.Count(*file)
			if err != nil {
				return err
			}
			bar := newBar(e.stderr, total, *dryRun)
			o.Progress = func(done, _ int) { _ = bar.Set(done) }
			defer bar.Close()
		}
		start := time.Now()
		sum, err := csvimport.Run(ctx, o)
		elapsed := time.Since(start)
		var be *csvimport.BatchError
		if errors.As(err, &be) {
			fmt.Fprintf(e.stderr, "\nstopped: %v\nrows 1-%d are imported; after fixing the file, resume with --from-row %d\n", be, be.Resume, be.Resume)
		}
		if err != nil {
			return err
		}
		return printSummary(e.stdout, sum, elapsed, *asJSON)
	}
}

func newBar(w io.Writer, total int, dryRun bool) *progressbar.ProgressBar {
	desc := "importing"
	if dryRun {
		desc = "checking"
	}
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionSetItsString("rows"), progressbar.OptionShowIts(),
		progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
}

func printSummary(w io.Writer, s csvimport.Summary, elapsed time.Duration, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			csvimport.Summary
			Seconds float64 `json:"seconds"`
		}{s, elapsed.Seconds()})
	}
	mode := "imported"
	if s.DryRun {
		mode = "checked (dry run: nothing written)"
	}
	fmt.Fprintf(w, "%d rows %s in %d requests, %s\n", s.Rows-s.Skipped, mode, s.Requests, elapsed.Round(time.Millisecond))
	if s.Skipped > 0 {
		fmt.Fprintf(w, "  skipped (--from-row): %d\n", s.Skipped)
	}
	fmt.Fprintf(w, "  vendors added:        %d\n  products added:       %d\n  assessments upserted: %d\n  custom vendors:       %d\n  queued for enrichment: %d\n",
		s.VendorsAdded, s.ProductsAdded, s.AssessmentsUpserted, s.CustomVendors, s.EnrichmentQueued)
	if len(s.Errors) > 0 {
		fmt.Fprintf(w, "  bad cells: %d\n", len(s.Errors))
		for _, e := range s.Errors {
			fmt.Fprintf(w, "    row %d, %s: %s\n", e.Row, e.Column, e.Message)
		}
	}
	return nil
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
