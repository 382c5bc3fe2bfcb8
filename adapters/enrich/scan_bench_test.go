package enrich_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// BenchmarkScan500 scans 500 vendors at once against the fixture world
// (every site but the one whose DNS never answers), through one Scanner
// that runs at most 16 scans at a time. One op is the whole batch; target
// under 60 s. "first-world" scans the sites of the first catalog (the world
// the figures before issue 25 were measured on), "whole-world" adds those
// of the second. It fails if the sites ever serve more requests at once
// than 16 scans can make (seven each: the MTA-STS policy, the AIA issuer,
// security.txt beside the four exposed-file probes).
//
//	go test -run '^$' -bench Scan500 -benchtime 1x ./enrich/
func BenchmarkScan500(b *testing.B) {
	b.Run("first-world", func(b *testing.B) { benchScan(b, firstWorld()) })
	b.Run("whole-world", func(b *testing.B) { benchScan(b, worldSites()) })
}

func benchScan(b *testing.B, world []worldSite) {
	const nVendors, concurrency, perScan = 500, 16, 7
	var sites []scantest.Site
	for _, s := range world {
		if s.site.DNS != scantest.DNSTimeout {
			sites = append(sites, s.site)
		}
	}
	w := scantest.Start(b, testenv.Clock(b), sites...)
	e := worldEnricher(b, w, true, concurrency)
	vs := make([]vendors.Vendor, nVendors)
	for i := range vs {
		domain := fmt.Sprintf("v%d.%s", i, sites[i%len(sites)].Domain)
		v, err := vendors.New(uuid.New(), domain, "https://"+domain+"/", w.Now())
		if err != nil {
			b.Fatal(err)
		}
		vs[i] = v
	}
	var instances atomic.Int64
	b.ResetTimer()
	for b.Loop() {
		w.ResetPeak()
		var wg sync.WaitGroup
		for _, v := range vs {
			wg.Go(func() {
				res, err := e.Enrich(context.Background(), v, vendors.NewProfile(uuid.New(), v.ID, w.Now()), []vendors.Section{vendors.SectionSecurity})
				if err != nil || len(res.Instances) == 0 {
					b.Errorf("%s: %v, %d instances", v.Name, err, len(res.Instances))
				}
				instances.Add(int64(len(res.Instances)))
			})
		}
		wg.Wait()
		if p := w.Peak(); p > perScan*concurrency {
			b.Fatalf("%d requests at once, more than %d scans can make", p, concurrency)
		}
	}
	b.ReportMetric(float64(w.Peak()), "peak-requests")
	b.ReportMetric(float64(nVendors*b.N)/b.Elapsed().Seconds(), "vendors/s")
	b.ReportMetric(float64(instances.Load())/float64(nVendors*b.N), "instances/vendor")
}
