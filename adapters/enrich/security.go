package enrich

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vetted-dev/vetted/core/vendors"
)

// security runs the outside-in scan of the vendor's website and domain. Its
// instances replace the vendor's (EnrichResult.Instances), not-checked
// signals included, and its signals and links fill the security and
// privacy groups. The section fails when no check at all could run; the
// instances still say why.
func (r *run) security(ctx context.Context) outcome {
	if r.site == nil {
		return failed("", errNoWebsite)
	}
	t := TargetOf(r.site, r.v.Domain)
	source := "https://" + hostPort(t.Host) + "/"
	res, err := r.e.scanner.Scan(ctx, t, r.now)
	if err != nil {
		return failed(source, err)
	}
	is := make([]vendors.SecurityInstance, 0, len(res.Observations))
	for _, o := range res.Observations {
		in, err := vendors.NewSecurityInstance(r.e.ids.New(), r.v.ID, o.Code, o.Evidence, o.Source, r.now)
		if err != nil {
			return failed(source, fmt.Errorf("scan recorded %s: %w", o.Code, err))
		}
		is = append(is, in)
	}
	sortInstances(is)
	r.instances = is
	r.prof.Security.ExternalSignals = res.Signals
	setIf(&r.prof.Privacy.PrivacyPolicyURL, res.Privacy)
	setIf(&r.prof.Company.TosURL, res.Terms)
	setIf(&r.prof.Security.TrustCenterURL, res.Trust)
	setIf(&r.prof.Security.StatusPageURL, res.Status)
	if !res.Ran() {
		var why []string
		for _, in := range is {
			if !slices.Contains(why, in.Evidence) {
				why = append(why, in.Evidence)
			}
		}
		if len(why) > 3 {
			why = append(why[:3], "...")
		}
		return failed(source, fmt.Errorf("no security check could run: %s", strings.Join(why, "; ")))
	}
	return done(source)
}

// sortInstances orders most severe first, then by code.
func sortInstances(is []vendors.SecurityInstance) {
	rank := func(s string) int { return slices.Index(vendors.SeverityValues(), s) }
	slices.SortStableFunc(is, func(a, b vendors.SecurityInstance) int {
		return cmp.Or(cmp.Compare(rank(a.Severity), rank(b.Severity)), cmp.Compare(a.Code, b.Code))
	})
}
