package assessments

import "github.com/vetted-dev/vetted/core/vendors"

// Request is one requested change of the assessment of a vendor on a list;
// Row is the CSV row it came from (0 for API calls), so that a refusal
// names the cell.
type Request struct {
	Row    int
	Vendor vendors.Vendor
	Input  Input
}
