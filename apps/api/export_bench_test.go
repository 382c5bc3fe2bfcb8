package api_test

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// BenchmarkExportMemory exports a register of 500 and of 5,000 vendors
// (each with an assessment) as CSV, read as a stream, and reports the
// process's peak heap above what it held before the request
// (peak-heap-MB): the export writes page by page, so the peak is meant to
// stay flat as the list grows ten times, while a whole-answer buffer would
// grow with it. Run: go test ./api -run '^$' -bench ExportMemory -benchtime 5x
func BenchmarkExportMemory(b *testing.B) {
	for _, n := range []int{500, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			env := apitest.New(b)
			acct := env.NewAccount(b, "Bench", "o@bench.test")
			tok := env.Token("o@bench.test", apitest.Verified())
			// import-csv takes at most 500 rows a request.
			for off := 0; off < n; off += 500 {
				csv := "vendor_name,product_name,tier,compliance_approval_status\n"
				for i := off; i < off+500; i++ {
					csv += fmt.Sprintf("Export Vendor %05d,Product %d,high,approved\n", i, i)
				}
				r := env.Do(b, http.MethodPost, "/vendor-lists?operation=import-csv&account-id="+acct, tok,
					map[string]any{"csv": csv, "row_limit": 500})
				if r.Status != http.StatusOK {
					b.Fatalf("import: %d %s", r.Status, r.Body)
				}
			}
			env.Drain(b)
			var peak float64
			b.ResetTimer()
			for range b.N {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapAlloc
				var (
					mu   sync.Mutex
					high = base
					stop = make(chan struct{})
					done = make(chan struct{})
				)
				go func() { // samples the heap while the answer streams
					defer close(done)
					t := time.NewTicker(time.Millisecond)
					defer t.Stop()
					for {
						select {
						case <-stop:
							return
						case <-t.C:
							var m runtime.MemStats
							runtime.ReadMemStats(&m)
							mu.Lock()
							high = max(high, m.HeapAlloc)
							mu.Unlock()
						}
					}
				}()
				req, err := http.NewRequest(http.MethodGet, env.URL+"/vendor-lists/export?format=csv&account-id="+acct+"&vendor-list=master-list", nil)
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := (&http.Client{}).Do(req)
				if err != nil {
					b.Fatal(err)
				}
				written, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				close(stop)
				<-done
				if err != nil || resp.StatusCode != http.StatusOK || written < int64(n)*40 {
					b.Fatalf("export: status %d, %d bytes, %v", resp.StatusCode, written, err)
				}
				peak = max(peak, float64(high-base)/(1<<20))
			}
			b.ReportMetric(peak, "peak-heap-MB")
		})
	}
}
