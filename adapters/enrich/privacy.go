package enrich

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// The privacy heuristics read the policy's visible text, lower-cased. They
// are deliberately simple and one-sided: a phrase found sets a field to
// true or adds to a list; a phrase missing changes nothing, because a
// policy can say the same thing in words we do not look for.
var (
	gdprPhrases = []string{"gdpr", "general data protection regulation", "regulation (eu) 2016/679"}
	dsrPhrases  = []string{
		"data subject request", "data subject access", "data subject rights", "dsar",
		"right to access", "right of access", "right to erasure", "right to be forgotten",
		"right to deletion", "request deletion", "delete your personal", "access, correct",
	}
	// dataKinds maps a phrase to the data_collected value it reveals.
	dataKinds = []struct{ phrase, kind string }{
		{"email address", "email address"},
		{"phone number", "phone number"},
		{"ip address", "ip address"},
		{"payment information", "payment information"},
		{"credit card", "payment information"},
		{"billing address", "billing address"},
		{"geolocation", "location"},
		{"location data", "location"},
		{"device information", "device information"},
		{"cookies", "cookies"},
		{"usage data", "usage data"},
	}
)

func (r *run) privacy(ctx context.Context) outcome {
	policy := r.prof.Privacy.PrivacyPolicyURL
	if policy == "" {
		_, m, err := r.home(ctx)
		if err != nil {
			return failed(r.siteString(), err)
		}
		policy = findLinks(m.Links, nil).privacy
	}
	if policy == "" {
		return failed(r.siteString(), errors.New("no privacy policy link found on the home page"))
	}
	page, err := r.getOK(ctx, policy)
	if err != nil {
		return failed(policy, err)
	}
	text := strings.ToLower(parseHTML(page.Body, page.URL).Text)
	if text == "" {
		text = strings.ToLower(string(page.Body))
	}
	p := &r.prof.Privacy
	p.PrivacyPolicyURL = policy
	if containsAny(text, gdprPhrases) {
		p.GDPRCompliant = flag(true)
	}
	if containsAny(text, dsrPhrases) {
		p.SupportsDataSubjectRequests = flag(true)
	}
	for _, d := range dataKinds {
		if strings.Contains(text, d.phrase) && !slices.Contains(p.DataCollected, d.kind) {
			p.DataCollected = append(p.DataCollected, d.kind)
		}
	}
	return done(page.URL.String())
}

func containsAny(text string, phrases []string) bool {
	for _, ph := range phrases {
		if strings.Contains(text, ph) {
			return true
		}
	}
	return false
}
