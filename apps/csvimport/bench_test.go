package csvimport_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vetted-dev/vetted/apps/csvimport"
)

// BenchmarkImport10000Rows imports a 10,000-row file (20 requests) into a
// fresh account of the embedded app over HTTP on loopback, per iteration.
func BenchmarkImport10000Rows(b *testing.B) {
	file := writeCSV(b, "vendor_name,product_name,compliance_approval_status", 10000, func(i int) string {
		return fmt.Sprintf("Vendor %05d,Product %d,in-progress", i, i)
	})
	s := newSetup(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		o := s.opts(file)
		o.List = fmt.Sprintf("bench-%d", i)
		b.StopTimer()
		s.env.Do(b, "POST", "/vendor-lists?account-id="+s.account+"&vendor-list="+o.List, s.token, nil)
		b.StartTimer()
		sum, err := csvimport.Run(context.Background(), o)
		if err != nil || sum.Requests != 20 {
			b.Fatalf("import: %+v, %v", sum, err)
		}
	}
}
