package contracts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// ServiceTypes is the one list of the kinds of service a contract covers
// (the type of each entry of services[]), loosely after the service types of
// the DORA Register of Information. A type outside it is refused.
var ServiceTypes = []string{
	"saas",            // software used as a service
	"iaas",            // infrastructure: compute, storage, network
	"paas",            // platforms to build and run software on
	"hosting",         // data centres, colocation, managed hosting
	"data_processing", // processing personal or business data for us
	"payment",         // payment and settlement services
	"communication",   // telecoms, messaging, e-mail delivery
	"security",        // security services: SOC, scanning, identity
	"consulting",      // advice and professional services
	"support",         // maintenance and support of what we run
	"other",
}

// Bounds of services[].
const (
	MaxServices        = 50
	MaxServiceNameRune = 200
)

// ServiceEntry is one service a contract covers.
type ServiceEntry struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// ParseServices checks services[]: at most MaxServices, each with a name
// (trimmed, at most MaxServiceNameRune characters) and a type of
// ServiceTypes (lower-cased). A nil list reads as empty.
func ParseServices(in []ServiceEntry) ([]ServiceEntry, error) {
	out := make([]ServiceEntry, 0, len(in))
	if len(in) > MaxServices {
		return nil, core.Invalid("Contract.Services", "at most %d services", MaxServices)
	}
	var errs core.Fields
	for i, s := range in {
		name := strings.Join(strings.Fields(s.Name), " ")
		typ := strings.ToLower(strings.TrimSpace(s.Type))
		if name == "" {
			errs.Add(field("Contract.Services[%d].Name", i), "is required")
		} else if len([]rune(name)) > MaxServiceNameRune {
			errs.Add(field("Contract.Services[%d].Name", i), "at most %d characters", MaxServiceNameRune)
		}
		if !slices.Contains(ServiceTypes, typ) {
			errs.Add(field("Contract.Services[%d].Type", i), "must be one of %s", strings.Join(ServiceTypes, ", "))
		}
		out = append(out, ServiceEntry{Name: name, Type: typ})
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// field names an element's field in an error.
func field(format string, i int) string { return fmt.Sprintf(format, i) }
