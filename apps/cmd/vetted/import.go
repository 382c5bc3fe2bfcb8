package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
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

// importLimits are the API's limits of one import-csv request, as the API
// declares them: the help of `vetted import` quotes them from here.
var importLimits = fmt.Sprintf("%d rows, %s", csvimport.MaxRows, csvimport.MaxSize)

// importSummary is the one-line description of `vetted import`.
var importSummary = "Import a CSV file of any length into a vendor list, in requests within the API's limits (" + importLimits + ")."

func importCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	file := fs.String("file", "", "CSV file: a header row with vendor_name, then one row per vendor or product, UTF-8, one field per column in every row; "+
		"sent in requests of at most "+importLimits+" (required)")
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
		var bar *progressbar.ProgressBar
		if !*quiet {
			// A bar of known length: progressbar's spinner mode (unknown
			// length) renders from a goroutine of its own without locking.
			// Rows skipped by --from-row are not on it, so its rate is the
			// rate of the rows this run sends.
			total, err := csvimport.Count(*file)
			if err != nil {
				return err
			}
			skip := min(max(*fromRow, 0), total)
			bar = newBar(e.stderr, total-skip, *dryRun)
			o.Progress = func(done, _ int) { _ = bar.Set(max(done-skip, 0)) }
		}
		start := time.Now()
		if bar != nil {
			// The clock of the rate starts with the import, not with the
			// first frame (drawn after the first answer, which would make
			// the first rate that batch over no time at all).
			bar.StartWithoutRender()
		}
		sum, err := csvimport.Run(ctx, o)
		elapsed := time.Since(start)
		if err != nil {
			if bar != nil && !bar.IsFinished() {
				// The bar stays where the import stopped (Close would fill
				// it); Exit ends its line before the error.
				_ = bar.Exit()
			}
			var be *csvimport.BatchError
			if errors.As(err, &be) {
				return &importStopped{be}
			}
			return err
		}
		if bar != nil {
			_ = bar.Close()
		}
		return printSummary(e.stdout, sum, elapsed, *asJSON)
	}
}

// importStopped is an import that stopped at a refused batch: its error
// (printed once, by main) says what was refused and how to resume.
type importStopped struct{ *csvimport.BatchError }

func (e *importStopped) Error() string {
	done := "no rows are imported"
	if e.Resume > 0 {
		done = fmt.Sprintf("rows 1-%d are imported", e.Resume)
	}
	return fmt.Sprintf("%v\n%s; after fixing the file, resume with --from-row %d", e.BatchError, done, e.Resume)
}

func (e *importStopped) Unwrap() error { return e.BatchError }

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
	fmt.Fprintf(w, "  vendors added:        %d\n  products added:       %d\n  assessments upserted: %d\n  custom vendors:       %d\n",
		s.VendorsAdded, s.ProductsAdded, s.AssessmentsUpserted, s.CustomVendors)
	en := s.Enrichment
	fmt.Fprintf(w, "  queued for enrichment: %d\n", en.Queued)
	if en.AlreadyKnown > 0 {
		fmt.Fprintf(w, "  already known:        %d (enriched or queued before)\n", en.AlreadyKnown)
	}
	if n := en.NotQueuedTotal(); n > 0 {
		codes := make([]string, 0, len(en.NotQueued))
		for c := range en.NotQueued {
			codes = append(codes, c)
		}
		slices.Sort(codes)
		for _, c := range codes {
			fmt.Fprintf(w, "  not queued (%s): %d: saved on the list, but not enriched\n", c, en.NotQueued[c])
		}
		fmt.Fprintf(w, "    e.g. %s: %s\n", en.Errors[0].VendorName, en.Errors[0].Message)
	}
	if en.Quota.Limit > 0 {
		fmt.Fprintf(w, "  enrichment quota:     %d of %d used, %d left\n", en.Quota.Used, en.Quota.Limit, en.Quota.Remaining)
	}
	if len(s.Errors) > 0 {
		fmt.Fprintf(w, "  bad cells: %d\n", len(s.Errors))
		for _, e := range s.Errors {
			fmt.Fprintf(w, "    %s\n", e)
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
