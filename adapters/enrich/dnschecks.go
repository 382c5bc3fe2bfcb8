package enrich

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
)

// dnsChecks are the checks of the DNS branch.
var dnsChecks = []string{"spf", "dmarc", "mta_sts", "caa"}

// dnsSource names a DNS question as an RFC 4501 URI.
func dnsSource(name, qtype string) string { return "dns:" + name + "?type=" + qtype }

// validated marks evidence read from an answer the resolver validated.
func validated(a answer) string {
	if a.ad {
		return " (DNSSEC-validated)"
	}
	return ""
}

// ask puts a DNS question for a check; when the answer is unknown it
// records the check as not checked, with the reason, and reports false.
func (r *scanRun) ask(ctx context.Context, check, name string, qtype uint16) (answer, bool) {
	a, err := r.s.dns.query(ctx, name, qtype)
	if err != nil {
		r.notChecked(check, err.Error(), dnsSource(name, dns.TypeToString[qtype]))
		return a, false
	}
	return a, true
}

// dnsChecks runs SPF, then DMARC, MTA-STS and CAA side by side. A domain
// that does not exist (NXDOMAIN on its own TXT question) stops everything:
// a vendor is not rated on records a broken or filtering resolver hides.
func (r *scanRun) dnsChecks(ctx context.Context) {
	d := r.t.Domain
	if d == "" {
		for _, c := range dnsChecks {
			r.notChecked(c, "no domain to look up: the website is an IP address", "")
		}
		return
	}
	src := dnsSource(d, "TXT")
	apex, err := r.s.dns.query(ctx, d, dns.TypeTXT)
	switch {
	case err != nil:
		r.notChecked("spf", err.Error(), src)
	case apex.nxdomain:
		for _, c := range dnsChecks {
			r.notChecked(c, d+" does not exist (NXDOMAIN)", src)
		}
		return
	default:
		v := checkSPF(d, apex.txt())
		v.evidence += validated(apex)
		r.sig.SPF = flag(r.verdict(v, src))
		r.sig.DNSSEC = flag(apex.ad)
	}
	// Each check writes its own runner; they are merged in catalog order.
	parts := []*scanRun{{s: r.s, t: r.t, now: r.now}, {s: r.s, t: r.t, now: r.now}, {s: r.s, t: r.t, now: r.now}}
	var wg sync.WaitGroup
	wg.Go(func() { parts[0].dmarc(ctx) })
	wg.Go(func() { parts[1].mtaSTS(ctx) })
	wg.Go(func() { parts[2].caa(ctx) })
	wg.Wait()
	for _, p := range parts {
		r.obs = append(r.obs, p.obs...)
	}
	r.sig.DMARC, r.sig.MTASTS, r.sig.CAA = parts[0].sig.DMARC, parts[1].sig.MTASTS, parts[2].sig.CAA
}

func (r *scanRun) dmarc(ctx context.Context) {
	name := "_dmarc." + r.t.Domain
	src := dnsSource(name, "TXT")
	a, ok := r.ask(ctx, "dmarc", name, dns.TypeTXT)
	if !ok {
		return
	}
	v := checkDMARC(name, a.txt())
	v.evidence += validated(a)
	r.sig.DMARC = flag(r.verdict(v, src, "dmarc_enforced") && v.code != "")
}

// mtaSTS checks the MTA-STS TXT record and the policy it announces (RFC
// 8461), for a domain that receives mail (has MX records).
func (r *scanRun) mtaSTS(ctx context.Context) {
	d := r.t.Domain
	mx, ok := r.ask(ctx, "mta_sts", d, dns.TypeMX)
	if !ok {
		return
	}
	var hosts []string
	for _, rr := range mx.rrs {
		if m, ok := rr.(*dns.MX); ok && m.Mx != "." { // "." is a null MX (RFC 7505)
			hosts = append(hosts, strings.TrimSuffix(m.Mx, "."))
		}
	}
	if len(hosts) == 0 {
		r.notChecked("mta_sts", "not applicable: "+d+" has no MX record, so it receives no mail", dnsSource(d, "MX"))
		return
	}
	name := "_mta-sts." + d
	src := dnsSource(name, "TXT")
	a, ok := r.ask(ctx, "mta_sts", name, dns.TypeTXT)
	if !ok {
		return
	}
	missing := func(why, source string) {
		r.record("mta_sts_missing", fmt.Sprintf("%s (MX: %s)", why, strings.Join(hosts, ", ")), source)
		r.sig.MTASTS = flag(false)
	}
	recs := withVersion(a.txt(), "STSv1")
	switch len(recs) {
	case 0:
		missing("no TXT record starting with v=STSv1 at "+name, src)
		return
	case 1:
	default:
		missing(fmt.Sprintf("%d TXT records starting with v=STSv1 at %s, so none applies (RFC 8461 §3.1): %s", len(recs), name, quoteAll(recs)), src)
		return
	}
	policyHost := "mta-sts." + d
	u := "https://" + policyHost + "/.well-known/mta-sts.txt"
	// RFC 8461 §3.3: the policy is fetched over HTTPS with a valid
	// certificate for the policy host, and redirects are not followed.
	p, err := r.s.fetch.GetOnce(ctx, u)
	switch {
	case errors.Is(err, ErrNoSuchHost):
		missing(fmt.Sprintf("%s: %q, but the policy host does not resolve: %v", name, recs[0], err), u)
		return
	case err != nil:
		r.notChecked("mta_sts", "policy "+u+": "+err.Error(), u)
		return
	}
	if err := r.verifyServer(p, policyHost); err != nil {
		missing(fmt.Sprintf("%s: %q, but %s is served with a certificate that does not verify: %v", name, recs[0], u, err), u)
		return
	}
	if p.Status != 200 {
		missing(fmt.Sprintf("%s: %q, but %s answered HTTP %d", name, recs[0], u, p.Status), u)
		return
	}
	switch mode := mtaSTSPolicy(string(p.Body)); mode {
	case "enforce":
		r.record("mta_sts_enforced", fmt.Sprintf("%s: %q; %s: mode: enforce (MX: %s)", name, recs[0], u, strings.Join(hosts, ", ")), u)
		r.sig.MTASTS = flag(true)
	case "":
		missing(fmt.Sprintf("%s is not a valid STSv1 policy", u), u)
	default:
		missing(fmt.Sprintf("%s: mode: %s, so failures are not enforced", u, mode), u)
	}
}

// verifyServer verifies the certificate a page was served with for host.
func (r *scanRun) verifyServer(p *Page, host string) error {
	if p.TLS == nil || len(p.TLS.PeerCertificates) == 0 {
		return errors.New("no certificate")
	}
	leaf := p.TLS.PeerCertificates[0]
	if !r.now.Before(leaf.NotAfter) {
		return fmt.Errorf("the certificate expired %s", leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	return r.verifyChain(p.TLS.PeerCertificates, host)
}

// caa looks for CAA records at the domain and its parents, the way a CA
// does (RFC 8659 §3), up to but not including the top-level domain.
func (r *scanRun) caa(ctx context.Context) {
	labels := strings.Split(r.t.Domain, ".")
	for i := 0; i+2 <= len(labels); i++ {
		name := strings.Join(labels[i:], ".")
		a, ok := r.ask(ctx, "caa", name, dns.TypeCAA)
		if !ok {
			return
		}
		var recs []string
		for _, rr := range a.rrs {
			if c, ok := rr.(*dns.CAA); ok {
				recs = append(recs, fmt.Sprintf("%d %s %q", c.Flag, c.Tag, c.Value))
			}
		}
		if len(recs) > 0 {
			r.record("caa_present", name+": "+strings.Join(recs, "; ")+validated(a), dnsSource(name, "CAA"))
			r.sig.CAA = flag(true)
			return
		}
	}
	r.record("caa_missing", fmt.Sprintf("no CAA record at %s or its parent domains, so any CA may issue certificates for it", r.t.Domain), dnsSource(r.t.Domain, "CAA"))
	r.sig.CAA = flag(false)
}
