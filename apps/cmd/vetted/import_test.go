package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/csvimport"
)

// writeRows writes a CSV file of a header and n rows made by row(i), i from 1.
func writeRows(t *testing.T, header string, n int, row func(i int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := 1; i <= n; i++ {
		b.WriteString(row(i) + "\n")
	}
	file := filepath.Join(t.TempDir(), "vendors.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// The summary says what became of enrichment: how many were queued, how
// many were saved but not queued over the quota, and the quota left; so
// does --json.
func TestImportSummaryReportsTheEnrichmentQuota(t *testing.T) {
	t.Parallel()
	api := apitest.New(t)
	acc := api.NewAccount(t, "Acme", "owner@acme.test")
	tok := api.Token("owner@acme.test")
	file := writeRows(t, "vendor_name", 503, func(i int) string { return fmt.Sprintf("Quota Vendor %04d", i) })

	e, out, _ := testEnv(map[string]string{envAPIURL: api.URL, envToken: tok})
	if err := run(context.Background(), []string{"import", "--file", file, "--account", acc, "--quiet"}, e); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"queued for enrichment: 500", "not queued (quota_exceeded): 3", "enrichment quota:     500 of 500 used, 0 left"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}

	// Again, as JSON: the vendors are known now, none is queued or refused.
	more := writeRows(t, "vendor_name", 4, func(i int) string { return fmt.Sprintf("Later Vendor %d", i) })
	e, out, _ = testEnv(map[string]string{envAPIURL: api.URL, envToken: tok})
	if err := run(context.Background(), []string{"import", "--file", more, "--account", acc, "--quiet", "--json"}, e); err != nil {
		t.Fatal(err)
	}
	var sum csvimport.Summary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	en := sum.Enrichment
	if en.Queued != 0 || en.NotQueued["quota_exceeded"] != 4 || len(en.Errors) != 4 || en.Quota.Remaining != 0 || en.Quota.Limit != 500 {
		t.Fatalf("--json enrichment %+v; want 4 quota_exceeded and no quota left\n%s", en, out)
	}
}

// importRefusedBatch imports 800 rows whose row 640 the API refuses (an
// unknown approval status), in batches of 500: the second batch is refused.
func importRefusedBatch(t *testing.T) (out, errb *bytes.Buffer, err error) {
	t.Helper()
	api := apitest.New(t)
	acc := api.NewAccount(t, "Acme", "owner@acme.test")
	tok := api.Token("owner@acme.test")
	file := writeRows(t, "vendor_name,compliance_approval_status", 800, func(i int) string {
		if i == 640 {
			return fmt.Sprintf("Vendor %04d,perhaps", i)
		}
		return fmt.Sprintf("Vendor %04d,approved", i)
	})
	e, out, errb := testEnv(map[string]string{envAPIURL: api.URL, envToken: tok})
	return out, errb, run(context.Background(), []string{"import", "--file", file, "--account", acc}, e)
}

// A refused batch names its cell by row in the file and column, and the
// message is printed once (by main, from the returned error), with the
// row to resume from.
func TestImportRefusedBatchNamesTheCellOnce(t *testing.T) {
	t.Parallel()
	out, errb, err := importRefusedBatch(t)
	if err == nil {
		t.Fatalf("import of a bad file succeeded:\n%s", out)
	}
	msg := err.Error()
	for _, want := range []string{"data rows 501-800: 422", "row 640, column compliance_approval_status: ", "rows 1-500 are imported", "--from-row 500"} {
		if strings.Count(msg, want) != 1 {
			t.Errorf("error names %q %d times, want once:\n%s", want, strings.Count(msg, want), msg)
		}
	}
	// The command itself prints nothing of it: main prints the error.
	if strings.Contains(errb.String(), "422") || strings.Contains(errb.String(), "compliance_approval_status") || strings.Contains(errb.String(), "from-row") {
		t.Fatalf("the command printed the error itself (main prints it again):\n%s", errb)
	}
	if exitCode(err) != 1 {
		t.Fatalf("exit code %d, want 1", exitCode(err))
	}
}

// A refused batch leaves the progress bar where the import stopped: it
// never shows the whole file done.
func TestImportRefusedBatchDoesNotFillTheBar(t *testing.T) {
	t.Parallel()
	_, errb, err := importRefusedBatch(t)
	if err == nil {
		t.Fatal("import of a bad file succeeded")
	}
	if strings.Contains(errb.String(), "100%") || strings.Contains(errb.String(), "800/800") {
		t.Fatalf("the bar shows the file done after a refused batch:\n%q", errb)
	}
	if !strings.HasSuffix(errb.String(), "\n") || strings.HasSuffix(errb.String(), "\n\n") {
		t.Fatalf("the bar's line is not ended once before the error:\n%q", errb)
	}
}

// The progress bar's clock starts with the import: its first frame, drawn
// when the first batch is answered, shows that batch over the time it took.
// Every answer here takes at least 200 ms, so no frame may show more than
// 500 rows per 0.2 s; a bar started at its first frame showed millions.
func TestImportProgressRateStartsWithTheImport(t *testing.T) {
	t.Parallel()
	api := apitest.New(t)
	acc := api.NewAccount(t, "Acme", "owner@acme.test")
	tok := api.Token("owner@acme.test")
	const delay = 200 * time.Millisecond
	target, err := url.Parse(api.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	file := writeRows(t, "vendor_name", 1200, func(i int) string { return fmt.Sprintf("Vendor %04d", i) })

	e, _, errb := testEnv(nil)
	if err := run(context.Background(), []string{"import", "--file", file, "--account", acc, "--base", slow.URL, "--token", tok}, e); err != nil {
		t.Fatalf("import: %v\n%s", err, errb)
	}
	frames := regexp.MustCompile(`\((\d+)/(\d+), (\d+) rows/(s|min|hr)\)`).FindAllStringSubmatch(errb.String(), -1)
	if len(frames) == 0 {
		t.Fatalf("no progress frame with a rate:\n%q", errb)
	}
	limit := float64(csvimport.MaxRows) / delay.Seconds()
	for _, f := range frames {
		rate, _ := strconv.ParseFloat(f[3], 64)
		if f[4] == "s" && rate > limit {
			t.Fatalf("frame %q shows %v rows/s; no more than %v rows/s is possible here:\n%q", f[0], rate, limit, errb)
		}
	}
}

// The help quotes the API's limits as the API declares them.
func TestImportHelpQuotesTheLimits(t *testing.T) {
	t.Parallel()
	e, out, _ := testEnv(nil)
	if err := run(context.Background(), []string{"import", "--help"}, e); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d rows, %s", csvimport.MaxRows, csvimport.MaxSize)
	if !strings.Contains(out.String(), want) || !strings.Contains(importSummary, want) {
		t.Fatalf("help does not quote %q:\n%s", want, out)
	}
}
