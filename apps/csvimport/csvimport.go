// Package csvimport sends a CSV file of any length to Vetted's import-csv
// operation (POST /vendor-lists?operation=import-csv) in requests within the
// API's limits (MaxRows data rows and MaxBytes of CSV each, the header
// repeated in every one). It is what `vetted import` runs.
//
// The file is checked whole before anything is sent: every data row must
// be UTF-8 text with as many fields as the header, the rule import-csv
// applies (lists.CheckRecord), so a file the API would refuse in its
// third request is refused before its first.
//
// Every batch is all-or-nothing on the server and re-running one changes
// nothing, so an import that stopped (a refused row, a network failure) is
// resumed safely with Options.FromRow set to the row it reports.
package csvimport

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core/lists"
)

// The API's limits for one import-csv request, as the API declares them.
const (
	MaxRows  = lists.MaxCSVRows
	MaxBytes = lists.MaxCSVBytes
	// MaxSize is MaxBytes for people ("1 MB").
	MaxSize = lists.MaxCSVSize
)

// Options describe one import.
type Options struct {
	// File is the CSV file: a header row with vendor_name, then data rows.
	File string
	// BaseURL is the API's base URL, e.g. http://127.0.0.1:8080.
	BaseURL string
	// Token is the bearer token.
	Token string
	// Account is the account id (or "individual"); List the list's name or
	// id (empty: master-list).
	Account, List string
	// DryRun validates and counts without writing.
	DryRun bool
	// FromRow skips the first FromRow data rows (resuming an import).
	FromRow int
	// MaxRows and MaxBytes bound one request (zero: the API's limits).
	MaxRows, MaxBytes int
	// Client sends the requests; nil is a client with a 2-minute timeout.
	Client *http.Client
	// Progress is called after each request with the data rows done so far
	// (including skipped ones) and the file's total.
	Progress func(done, total int)
}

// Summary adds up the answers of every request.
type Summary struct {
	DryRun              bool `json:"dry_run"`
	Rows                int  `json:"rows"`
	Requests            int  `json:"requests"`
	Skipped             int  `json:"skipped"`
	VendorsAdded        int  `json:"vendors_added"`
	ProductsAdded       int  `json:"products_added"`
	AssessmentsUpserted int  `json:"assessments_upserted"`
	CustomVendors       int  `json:"custom_vendors"`
	EnrichmentQueued    int  `json:"enrichment_queued"`
	// Enrichment is what became of the custom vendors the import added:
	// queued, already known, or saved but not queued (over quota).
	Enrichment Enrichment `json:"enrichment"`
	Errors     []RowError `json:"errors"`
}

// Enrichment adds up the org_enrichment answers of an import.
type Enrichment struct {
	Queued       int `json:"queued"`
	AlreadyKnown int `json:"already_known"`
	// NotQueued counts the vendors saved but not queued, by the API's code
	// (quota_exceeded: the account has used its enrichment quota).
	NotQueued map[string]int `json:"not_queued"`
	// Quota is the account's quota as the last answer left it.
	Quota Quota `json:"quota"`
	// Errors are the vendors saved but not queued, with the API's reason.
	Errors []EnrichmentError `json:"errors"`
}

// Quota is the account's enrichment quota.
type Quota struct {
	Limit     int `json:"limit"`
	Used      int `json:"used"`
	Remaining int `json:"remaining"`
}

// EnrichmentError is a vendor saved but not queued for enrichment.
type EnrichmentError struct {
	VendorName string `json:"vendor_name"`
	Code       string `json:"code"`
	Message    string `json:"message"`
}

// NotQueuedTotal is the number of vendors saved but not queued.
func (e Enrichment) NotQueuedTotal() int { return len(e.Errors) }

// RowError is a bad cell; Row counts data rows of the whole file from 1
// (blank lines are not rows). Column is empty when the whole row is at
// fault.
type RowError struct {
	Row     int    `json:"row"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// String names the cell and what is wrong with it.
func (r RowError) String() string {
	if r.Column == "" {
		return fmt.Sprintf("row %d: %s", r.Row, r.Message)
	}
	return fmt.Sprintf("row %d, column %s: %s", r.Row, r.Column, r.Message)
}

// BatchError is a request the API refused; the import stopped before
// Resume, which is the FromRow that retries the refused batch.
type BatchError struct {
	FirstRow, LastRow int
	Resume            int
	Status            int
	Problem           Problem
	// Cells are the problem's cells placed in the file: Row counts data
	// rows of the whole file from 1, as RowError does.
	Cells []RowError
	Err   error
}

func (e *BatchError) Error() string {
	where := fmt.Sprintf("data rows %d-%d", e.FirstRow, e.LastRow)
	if e.Err != nil {
		return fmt.Sprintf("import %s: %v", where, e.Err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "import %s: %d %s", where, e.Status, e.Problem.Detail)
	for _, c := range e.Cells {
		fmt.Fprintf(&b, "\n  %s", c)
	}
	for _, d := range e.Problem.Errors {
		if d.Row == 0 {
			fmt.Fprintf(&b, "\n  %s: %s", d.Location, d.Message)
		}
	}
	return b.String()
}

func (e *BatchError) Unwrap() error { return e.Err }

// FileError is a file refused before anything was sent: rows that are not
// UTF-8 text or do not have as many fields as the header.
type FileError struct {
	File   string
	Errors []RowError
	// More counts the faults left out of Errors.
	More int
}

func (e *FileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "import: %s was not sent: every data row must be UTF-8 text with one field per header column", e.File)
	for _, r := range e.Errors {
		fmt.Fprintf(&b, "\n  %s", r)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more", e.More)
	}
	return b.String()
}

// Problem is an RFC 9457 problem answer.
type Problem struct {
	Title  string          `json:"title"`
	Status int             `json:"status"`
	Detail string          `json:"detail"`
	Errors []ProblemDetail `json:"errors"`
}

// ProblemDetail is one input at fault. For a CSV cell the API gives its
// data row within the request's CSV and its column.
type ProblemDetail struct {
	Location string `json:"location"`
	Message  string `json:"message"`
	Row      int    `json:"row,omitempty"`
	Column   string `json:"column,omitempty"`
}

type request struct {
	CSV       string `json:"csv"`
	DryRun    bool   `json:"dry_run,omitempty"`
	RowOffset int    `json:"row_offset"`
	RowLimit  int    `json:"row_limit"`
}

type answer struct {
	RowsTotal           int      `json:"rows_total"`
	RowsProcessed       int      `json:"rows_processed"`
	NextRowOffset       int      `json:"next_row_offset"`
	HasMore             bool     `json:"has_more"`
	VendorsAdded        int      `json:"vendors_added"`
	ProductsAdded       int      `json:"products_added"`
	AssessmentsUpserted int      `json:"assessments_upserted"`
	CustomVendors       []string `json:"custom_vendors"`
	Errors              []struct {
		Row     int    `json:"row"`
		Column  string `json:"column"`
		Message string `json:"message"`
	} `json:"errors"`
	OrgEnrichment struct {
		Queued        int               `json:"queued"`
		QueuedVendors []string          `json:"queued_vendors"`
		AlreadyKnown  int               `json:"already_known"`
		Quota         Quota             `json:"quota"`
		Errors        []EnrichmentError `json:"errors"`
	} `json:"org_enrichment"`
}

// maxFileFaults bounds the faults a FileError lists.
const maxFileFaults = 20

// Count returns the number of data rows of a CSV file (blank lines do not
// count, as the API skips them), for a progress bar's total. A file with a
// row the API would refuse whatever its content (lists.CheckRecord)
// is a *FileError naming those rows.
func Count(file string) (int, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := newReader(f)
	r.ReuseRecord = false // the header is kept
	header, err := r.Read()
	if err != nil {
		return 0, headerErr(err)
	}
	header[0] = strings.TrimPrefix(header[0], "\ufeff")
	fe := &FileError{File: file}
	n := 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("read csv: %w", err)
		}
		if lists.Blank(rec) {
			continue
		}
		n++
		for _, f := range lists.CheckRecord(header, rec) {
			if len(fe.Errors) == maxFileFaults {
				fe.More++
				continue
			}
			fe.Errors = append(fe.Errors, RowError{Row: n, Column: f.Column, Message: f.Message})
		}
	}
	if len(fe.Errors) > 0 {
		return 0, fe
	}
	return n, nil
}

// Run imports the file and answers the sum of the API's answers. It stops
// at the first refused request with a *BatchError.
func Run(ctx context.Context, o Options) (Summary, error) {
	if o.MaxRows <= 0 || o.MaxRows > MaxRows {
		o.MaxRows = MaxRows
	}
	if o.MaxBytes <= 0 || o.MaxBytes > MaxBytes {
		o.MaxBytes = MaxBytes
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 2 * time.Minute}
	}
	if o.Account == "" {
		return Summary{}, errors.New("import: an account id is required")
	}
	endpoint, err := endpointURL(o)
	if err != nil {
		return Summary{}, err
	}
	total, err := Count(o.File)
	if err != nil {
		return Summary{}, err
	}
	f, err := os.Open(o.File)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	sum := Summary{DryRun: o.DryRun, Rows: total, Errors: []RowError{},
		Enrichment: Enrichment{NotQueued: map[string]int{}, Errors: []EnrichmentError{}}}
	sp := &splitter{r: newReader(f), maxRows: o.MaxRows, maxBytes: o.MaxBytes}
	var dq dryQuota // a dry run's batches replayed (dryquota.go)
	if err := sp.readHeader(); err != nil {
		return sum, err
	}
	for {
		b, err := sp.next()
		if err != nil {
			return sum, err
		}
		if b == nil {
			return sum, nil
		}
		if b.last <= o.FromRow {
			sum.Skipped += b.rows
			report(o, b.last, total)
			continue
		}
		offset := max(o.FromRow-b.first+1, 0) // resume inside a batch
		sum.Skipped += offset
		for more := true; more; {
			a, status, prob, err := send(ctx, o, endpoint, request{CSV: b.csv, DryRun: o.DryRun, RowOffset: offset, RowLimit: o.MaxRows})
			sum.Requests++
			if err != nil || status != http.StatusOK {
				be := &BatchError{FirstRow: b.first + offset, LastRow: b.last, Resume: b.first + offset - 1,
					Status: status, Problem: prob, Err: err}
				for _, d := range prob.Errors {
					if d.Row > 0 { // a row of this request's CSV, which starts at the batch's first row
						be.Cells = append(be.Cells, RowError{Row: b.first - 1 + d.Row, Column: d.Column, Message: d.Message})
					}
				}
				return sum, be
			}
			sum.VendorsAdded += a.VendorsAdded
			sum.ProductsAdded += a.ProductsAdded
			sum.AssessmentsUpserted += a.AssessmentsUpserted
			sum.CustomVendors += len(a.CustomVendors)
			en := a.OrgEnrichment
			if o.DryRun && en.QueuedVendors != nil { // an API that names them
				en.Queued, en.Errors, en.Quota = dq.replay(en.QueuedVendors, en.Errors, en.Quota)
			}
			sum.EnrichmentQueued += en.Queued
			sum.Enrichment.add(en.Queued, en.AlreadyKnown, en.Quota, en.Errors)
			for _, e := range a.Errors {
				sum.Errors = append(sum.Errors, RowError{Row: b.first - 1 + e.Row, Column: e.Column, Message: e.Message})
			}
			if a.NextRowOffset <= offset && a.HasMore {
				return sum, fmt.Errorf("import: the API did not advance past row %d", b.first+offset)
			}
			offset, more = a.NextRowOffset, a.HasMore
			report(o, b.first-1+offset, total)
		}
	}
}

func (e *Enrichment) add(queued, known int, q Quota, errs []EnrichmentError) {
	e.Queued += queued
	e.AlreadyKnown += known
	e.Quota = q
	for _, x := range errs {
		e.NotQueued[x.Code]++
		e.Errors = append(e.Errors, x)
	}
}

func report(o Options, done, total int) {
	if o.Progress != nil {
		o.Progress(done, total)
	}
}

func endpointURL(o Options) (string, error) {
	u, err := url.Parse(strings.TrimRight(o.BaseURL, "/") + "/vendor-lists")
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("import: base URL %q is not an http(s) URL", o.BaseURL)
	}
	q := url.Values{"operation": {"import-csv"}, "account-id": {o.Account}}
	if o.List != "" {
		q.Set("vendor-list", o.List)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// send posts one request, waiting and trying again (up to 5 times) when the
// API answers 429 or 503 or cannot be reached.
func send(ctx context.Context, o Options, endpoint string, in request) (answer, int, Problem, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return answer{}, 0, Problem{}, err
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			wait := time.Duration(math.Pow(2, float64(attempt-1))) * time.Second
			if t := retryAfter(lastErr); t > 0 {
				wait = t
			}
			select {
			case <-ctx.Done():
				return answer{}, 0, Problem{}, ctx.Err()
			case <-time.After(wait):
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
		if err != nil {
			return answer{}, 0, Problem{}, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		if o.Token != "" {
			req.Header.Set("Authorization", "Bearer "+o.Token)
		}
		res, err := o.Client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return answer{}, 0, Problem{}, ctx.Err()
			}
			lastErr = err
			continue
		}
		raw, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
		res.Body.Close()
		if err != nil {
			lastErr = err
			continue
		}
		switch {
		case res.StatusCode == http.StatusOK:
			var a answer
			if err := json.Unmarshal(raw, &a); err != nil {
				return answer{}, res.StatusCode, Problem{}, fmt.Errorf("decode answer: %w", err)
			}
			return a, res.StatusCode, Problem{}, nil
		case res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable:
			lastErr = &busyError{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After")}
			continue
		default:
			var p Problem
			if json.Unmarshal(raw, &p) != nil || p.Detail == "" {
				p.Detail = strings.TrimSpace(string(raw))
			}
			return answer{}, res.StatusCode, p, nil
		}
	}
	return answer{}, 0, Problem{}, fmt.Errorf("gave up after 5 attempts: %w", lastErr)
}

type busyError struct {
	status     int
	retryAfter string
}

func (e *busyError) Error() string { return fmt.Sprintf("the API answered %d", e.status) }

func retryAfter(err error) time.Duration {
	var b *busyError
	if errors.As(err, &b) {
		if s, err := strconv.Atoi(b.retryAfter); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
	}
	return 0
}

// batch is one request's CSV: the header and data rows first..last (1-based
// over the file's data rows).
type batch struct {
	csv         string
	first, last int
	rows        int
}

// splitter cuts a CSV stream into batches within the limits, re-encoding
// each record so that quoting survives.
type splitter struct {
	r                 *csv.Reader
	maxRows, maxBytes int
	header            []byte
	pending           []byte // an encoded record read but not yet placed
	row               int    // data rows read so far
	eof               bool
}

func newReader(r io.Reader) *csv.Reader {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr
}

func headerErr(err error) error {
	if errors.Is(err, io.EOF) {
		return errors.New("import: the file is empty; it needs a header row with vendor_name")
	}
	return fmt.Errorf("import: read header: %w", err)
}

func (s *splitter) readHeader() error {
	rec, err := s.r.Read()
	if err != nil {
		return headerErr(err)
	}
	rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
	s.header = encode(rec)
	return nil
}

func (s *splitter) next() (*batch, error) {
	var buf bytes.Buffer
	buf.Write(s.header)
	b := &batch{first: s.row + 1}
	if s.pending != nil { // read, and counted, before the last batch filled up
		b.first = s.row
	}
	for b.rows < s.maxRows {
		line := s.pending
		s.pending = nil
		if line == nil {
			if s.eof {
				break
			}
			rec, err := s.r.Read()
			if errors.Is(err, io.EOF) {
				s.eof = true
				break
			}
			if err != nil {
				return nil, fmt.Errorf("import: read csv after data row %d: %w", s.row, err)
			}
			if lists.Blank(rec) {
				continue
			}
			s.row++
			line = encode(rec)
			if len(s.header)+len(line) > s.maxBytes {
				return nil, fmt.Errorf("import: data row %d alone is %d bytes with the header; the limit of one request is %d", s.row, len(s.header)+len(line), s.maxBytes)
			}
		}
		if buf.Len()+len(line) > s.maxBytes {
			s.pending = line
			break
		}
		buf.Write(line)
		b.rows++
	}
	if b.rows == 0 {
		return nil, nil
	}
	b.last = b.first + b.rows - 1
	b.csv = buf.String()
	return b, nil
}

func encode(rec []string) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(rec) // a bytes.Buffer does not fail
	w.Flush()
	return buf.Bytes()
}
