package enrich_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// goodCodes is what the hardened site of scantest.Good records: positives only.
var goodCodes = []string{"hsts_preload_ready", "security_txt_present", "dmarc_enforced", "mta_sts_enforced", "caa_present",
	"privacy_policy_found", "terms_found", "trust_center_found", "status_page_found"}

// webNotChecked are the not-checked codes of every check on ports 80/443.
var webNotChecked = []string{"https_not_checked", "http_redirect_not_checked", "hsts_not_checked", "csp_not_checked",
	"x_frame_options_not_checked", "x_content_type_options_not_checked", "server_version_not_checked", "security_txt_not_checked",
	"cookies_not_checked", "mixed_content_not_checked", "git_directory_not_checked", "env_file_not_checked", "server_status_not_checked",
	"tls_certificate_not_checked", "tls_protocol_not_checked", "privacy_policy_not_checked", "terms_not_checked",
	"trust_center_not_checked", "status_page_not_checked"}

var dnsNotChecked = []string{"spf_not_checked", "spf_lookups_not_checked", "dmarc_not_checked", "dkim_not_checked",
	"mta_sts_not_checked", "caa_not_checked", "dnssec_not_checked"}

func plus(base []string, more ...string) []string { return append(slices.Clone(base), more...) }

// worldSite is a site of the fixture world with the exact codes a scan of
// it must record, and words the evidence of some codes must contain.
type worldSite struct {
	site     scantest.Site
	domain   string // scanned instead of site.Domain when set (a name the world does not know)
	want     []string
	evidence map[string]string
	// secret is a value the site serves that no evidence may repeat.
	secret string
	rated  bool
}

// worldSites is the whole fixture world: the sites of the first catalog
// (issue 12) and those of the second (issue 25).
func worldSites() []worldSite { return append(firstWorld(), secondWorld()...) }

// with is scantest.Good changed by f.
func with(domain string, f func(*scantest.Site)) scantest.Site {
	s := scantest.Good(domain)
	f(&s)
	return s
}

// firstWorld is the world of the first catalog: every kind of site its
// checks tell apart, each also checked against the second catalog.
func firstWorld() []worldSite {
	fair := scantest.Good("fair.test")
	fair.TLS = scantest.TLSExpiring
	fair.Headers = map[string]string{
		"Strict-Transport-Security": "max-age=86400",
		"Content-Security-Policy":   "default-src 'self' 'unsafe-inline'",
		"X-Frame-Options":           "DENY",
		"X-Content-Type-Options":    "nosniff",
	}
	fair.SecurityTxtExpiresIn = -30 * 24 * time.Hour // a month before the world's clock
	fair.Home = `<html><body><a href="/privacy">Privacy</a> <a href="/terms">Terms of Use</a></body></html>`
	// Longer than one 255-byte TXT string: the reader must join the pieces
	// or lose the ~all at its end.
	long := "v=spf1 include:_spf.mail.test"
	for i := range 30 {
		long += fmt.Sprintf(" ip4:192.0.2.%d", i)
	}
	fair.TXT = []string{long + " ~all"}
	fair.DMARC = []string{"v=DMARC1; p=none; rua=mailto:d@fair.test"}
	fair.MTASTS, fair.MTASTSPolicy, fair.DNSSEC = nil, "", false

	weak := scantest.Weak("weak.test")

	nohttps := scantest.Good("nohttps.test")
	nohttps.TLS, nohttps.HTTP, nohttps.Headers = scantest.TLSNone, scantest.HTTPServe, nil
	nohttps.Home = `<html><body><a href="/privacy-policy">Privacy</a></body></html>`
	nohttps.MX, nohttps.MTASTS = nil, nil

	unreachable := with("unreachable.test", func(s *scantest.Site) { s.Unreachable, s.CAA = true, nil })

	return []worldSite{
		{site: scantest.Good("good.test"), want: goodCodes, rated: true,
			evidence: map[string]string{"dmarc_enforced": "(DNSSEC-validated)", "mta_sts_enforced": "mode: enforce", "caa_present": `issue "letsencrypt.org"`}},
		{site: fair, rated: true, want: []string{"tls_cert_expiring_soon", "hsts_short_max_age", "csp_unsafe", "security_txt_expired",
			"spf_softfail", "dmarc_policy_none", "mta_sts_missing", "caa_present", "privacy_policy_found", "terms_found", "dnssec_missing"},
			evidence: map[string]string{"tls_cert_expiring_soon": "expires in 10 days", "csp_unsafe": "'unsafe-inline' in default-src", "spf_softfail": "~all"}},
		{site: weak, rated: true, want: []string{"tls_protocol_weak", "http_not_redirected", "hsts_missing", "csp_missing",
			"x_frame_options_missing", "x_content_type_options_missing", "server_version_disclosed", "security_txt_missing",
			"spf_missing", "dmarc_missing", "mta_sts_missing", "caa_missing", "dnssec_missing", "dkim_missing"},
			evidence: map[string]string{"tls_protocol_weak": "TLS 1.", "server_version_disclosed": "Apache/2.4.41", "http_not_redirected": "HTTP 200",
				"security_txt_missing": "HTTP 404"}},
		{site: nohttps, rated: true, want: []string{"https_missing", "http_not_redirected", "csp_missing", "x_frame_options_missing",
			"x_content_type_options_missing", "hsts_not_checked", "security_txt_not_checked", "tls_certificate_not_checked",
			"tls_protocol_not_checked", "dmarc_enforced", "mta_sts_not_checked", "caa_present", "privacy_policy_found",
			"cookies_not_checked", "mixed_content_not_checked"},
			evidence: map[string]string{"https_missing": "connection refused", "mta_sts_not_checked": "no MX record",
				"cookies_not_checked": "over http", "mixed_content_not_checked": "not applicable"}},
		{site: with("expired.test", func(s *scantest.Site) { s.TLS = scantest.TLSExpired }), rated: true, want: plus(goodCodes, "tls_cert_expired"),
			evidence: map[string]string{"tls_cert_expired": "expired"}},
		{site: with("selfsigned.test", func(s *scantest.Site) { s.TLS = scantest.TLSSelfSigned }), rated: true, want: plus(goodCodes, "tls_cert_untrusted"),
			evidence: map[string]string{"tls_cert_untrusted": "unknown authority"}},
		{site: with("mismatch.test", func(s *scantest.Site) { s.TLS = scantest.TLSMismatch }), rated: true, want: plus(goodCodes, "tls_cert_hostname_mismatch"),
			evidence: map[string]string{"tls_cert_hostname_mismatch": "other.invalid"}},
		{site: with("permissive.test", func(s *scantest.Site) { s.TXT = []string{"v=spf1 mx +all"} }), rated: true, want: plus(goodCodes, "spf_permissive")},
		{site: with("malformed.test", func(s *scantest.Site) { s.TXT = []string{"v=spf1 ip4:300.1.1.1 -all"} }), rated: true, want: plus(goodCodes, "spf_malformed")},
		{site: unreachable, rated: true, want: plus(webNotChecked, "dmarc_enforced", "mta_sts_not_checked", "caa_missing"),
			evidence: map[string]string{"https_not_checked": "connection refused", "mta_sts_not_checked": "connection refused"}},
		{site: with("servfail.test", func(s *scantest.Site) { s.DNS = scantest.DNSServfail }), want: plus(webNotChecked, dnsNotChecked...),
			evidence: map[string]string{"https_not_checked": "SERVFAIL", "spf_not_checked": "SERVFAIL"}},
		{site: with("timeout.test", func(s *scantest.Site) { s.DNS = scantest.DNSTimeout }), want: plus(webNotChecked, dnsNotChecked...),
			evidence: map[string]string{"https_not_checked": "timeout", "caa_not_checked": "timeout"}},
		{site: scantest.Site{Domain: "elsewhere.test"}, domain: "gone.test", want: plus(webNotChecked, dnsNotChecked...),
			evidence: map[string]string{"https_not_checked": "NXDOMAIN", "spf_not_checked": "gone.test does not exist (NXDOMAIN)"}},
	}
}

// secondWorld has a site and a zone for each finding of the second catalog
// (issue 25), each the hardened site with one thing wrong, and the
// boundary cases that must stay clean.
func secondWorld() []worldSite {
	site := func(domain string, f func(*scantest.Site), extra ...string) worldSite {
		return worldSite{site: with(domain, f), want: plus(goodCodes, extra...), rated: true}
	}
	withEvidence := func(w worldSite, code, word string) worldSite {
		w.evidence = map[string]string{code: word}
		return w
	}
	records := func(rs map[string][]string) func(*scantest.Site) {
		return func(s *scantest.Site) { s.Records = rs }
	}
	spf11 := records(map[string][]string{
		"selector1._domainkey": {scantest.DKIMRecord(2048)},
		"_s1":                  {"v=spf1 include:_s2.spf11.test exists:%{i}._x.spf11.test a -all"},
		"_s2":                  {"v=spf1 mx ptr -all"},
		"_r":                   {"v=spf1 a mx -all"},
	})
	// Exactly ten: the redirect is ignored, for the record has an all.
	spf10 := records(map[string][]string{
		"selector1._domainkey": {scantest.DKIMRecord(2048)},
		"_s1":                  {"v=spf1 include:_s2.spf10.test exists:%{i}._x.spf10.test a -all"},
		"_s2":                  {"v=spf1 mx ptr -all"},
		"_r":                   {"v=spf1 a mx ptr include:_s1.spf10.test -all"},
	})
	good := scantest.Good("x.test").Home
	return []worldSite{
		// DNSSEC: an unsigned zone; a signed zone whose resolver does not
		// validate (no AD) is found signed by its DNSKEY.
		withEvidence(site("nodnssec.test", func(s *scantest.Site) { s.DNSSEC = false }, "dnssec_missing"), "dnssec_missing", "no DNSKEY record"),
		site("signed.test", func(s *scantest.Site) { s.Unvalidated = true }),
		// DKIM: no key at any common selector, a revoked key, a 512-bit key,
		// and a 1024-bit key, which is not weak.
		withEvidence(site("nodkim.test", func(s *scantest.Site) { s.Records = nil }, "dkim_missing"), "dkim_missing",
			"default, google, selector1, selector2, k1, s1, s2, dkim, mail"),
		withEvidence(site("dkimrevoked.test", records(map[string][]string{"default._domainkey": {"v=DKIM1; k=rsa; p="}}), "dkim_revoked"),
			"dkim_revoked", "default._domainkey.dkimrevoked.test"),
		withEvidence(site("dkimweak.test", records(map[string][]string{"s1._domainkey": {scantest.DKIMRecord(512)}}), "dkim_weak_key"),
			"dkim_weak_key", "RSA 512 bits"),
		site("dkim1024.test", records(map[string][]string{"google._domainkey": {scantest.DKIMRecord(1024)}})),
		// SPF: eleven DNS-querying terms through includes and a redirect;
		// exactly ten is allowed.
		withEvidence(site("spf11.test", func(s *scantest.Site) {
			spf11(s)
			s.TXT = []string{"v=spf1 a mx include:_s1.spf11.test redirect=_r.spf11.test"}
		}, "spf_too_many_lookups"), "spf_too_many_lookups", "ptr (in _s2.spf11.test)"),
		site("spf10.test", func(s *scantest.Site) {
			spf10(s)
			s.TXT = []string{"v=spf1 a:mail.spf10.test mx:mx.spf10.test a mx include:_s1.spf10.test -all redirect=_r.spf10.test"}
		}),
		// DMARC: enforced on half the mail; pct=100 is whole.
		withEvidence(site("dmarcpct.test", func(s *scantest.Site) { s.DMARC = []string{"v=DMARC1; p=quarantine; pct=50"} }, "dmarc_partial"),
			"dmarc_partial", "50%"),
		site("dmarc100.test", func(s *scantest.Site) { s.DMARC = []string{"v=DMARC1; p=reject; pct=100"} }),
		// Cookies: each lacks something; the evidence names them, not
		// their values.
		{site: with("cookies.test", func(s *scantest.Site) {
			s.Cookies = []string{"session=tok-9f3a; Path=/; HttpOnly; SameSite=Lax", "pref=tok-9f3a; Secure; HttpOnly", "theme=tok-9f3a", s.Cookies[0]}
		}), want: plus(goodCodes, "cookie_insecure"), rated: true, secret: "tok-9f3a",
			evidence: map[string]string{"cookie_insecure": `"session" lacks Secure; "pref" lacks SameSite; "theme" lacks Secure, HttpOnly, SameSite`}},
		// Exposed files, and two soft 404s: one answers every path with
		// its home page, the other with what looks like a Git HEAD.
		withEvidence(site("git.test", func(s *scantest.Site) { s.Files = map[string]string{"/.git/HEAD": "ref: refs/heads/main\n"} }, "exposed_git"),
			"exposed_git", `"ref: refs/heads/main"`),
		{site: with("env.test", func(s *scantest.Site) {
			s.Files = map[string]string{"/.env": "# production\nAPP_ENV=production\nDB_PASSWORD=hunter2-9f3a\nexport API_KEY=k-9f3a\n"}
		}), want: plus(goodCodes, "exposed_env"), rated: true, secret: "9f3a",
			evidence: map[string]string{"exposed_env": "3 variables (APP_ENV, DB_PASSWORD, API_KEY"}},
		withEvidence(site("serverstatus.test", func(s *scantest.Site) {
			s.Files = map[string]string{"/server-status": "<html><head><title>Apache Status</title></head><body>" +
				"<h1>Apache Server Status for serverstatus.test (via 127.0.0.1)</h1><dl><dt>Server uptime: 3 days</dt></dl></body></html>"}
		}, "exposed_server_status"), "exposed_server_status", "Apache Server Status for serverstatus.test"),
		site("soft404.test", func(s *scantest.Site) { s.CatchAll = s.Home }),
		site("softgit.test", func(s *scantest.Site) { s.CatchAll = "ref: refs/heads/main\n" }),
		// Mixed content: a script, a stylesheet and a frame over http; a
		// plain http link, a //-relative script, an http canonical link
		// and an http image are not mixed active content.
		withEvidence(site("mixed.test", func(s *scantest.Site) {
			s.Home = strings.Replace(good, "</body>", `<script src="http://cdn.mixed.test/app.js"></script>
<link rel="stylesheet" href="http://cdn.mixed.test/site.css"><iframe src="http://video.mixed.test/embed"></iframe></body>`, 1)
		}, "mixed_content"), "mixed_content", "<script src> http://cdn.mixed.test/app.js, <link rel=stylesheet href> http://cdn.mixed.test/site.css, <iframe src> http://video.mixed.test/embed"),
		site("mixedok.test", func(s *scantest.Site) {
			s.Home = strings.Replace(good, "</body>", `<a href="http://blog.mixedok.test/">Blog</a>
<script src="//cdn.mixedok.test/app.js"></script><link rel="canonical" href="http://mixedok.test/"><img src="http://img.mixedok.test/a.png"></body>`, 1)
		}),
		// Certificates: a chain sent without its intermediate, which the
		// leaf's AIA names; a complete chain; an RSA 1024-bit key; an RSA
		// 2048-bit key (not weak); a SHA-1 signature, which Go no longer
		// verifies either.
		withEvidence(site("incomplete.test", func(s *scantest.Site) { s.TLS = scantest.TLSIncomplete }, "tls_chain_incomplete"),
			"tls_chain_incomplete", `"Vetted Scan Test Intermediate CA" fetched from the certificate's AIA caIssuers URL http://aia.incomplete.test/issuer.cer`),
		site("chain.test", func(s *scantest.Site) { s.TLS = scantest.TLSIntermediate }),
		withEvidence(site("weakkey.test", func(s *scantest.Site) { s.TLS = scantest.TLSWeakKey }, "tls_weak_key"), "tls_weak_key", "RSA 1024 bits"),
		site("rsa.test", func(s *scantest.Site) { s.TLS = scantest.TLSRSA }),
		withEvidence(site("sha1.test", func(s *scantest.Site) { s.TLS = scantest.TLSSHA1 }, "tls_weak_signature", "tls_cert_untrusted"),
			"tls_weak_signature", "ECDSA-SHA1"),
	}
}

// worldScanner is a scanner that asks only the world.
func worldScanner(t testing.TB, w *scantest.World, allowPrivate bool, concurrency int) *enrich.Scanner {
	t.Helper()
	d, err := enrich.NewDNS(enrich.DNSConfig{Server: w.Resolver, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return enrich.NewScanner(enrich.ScanConfig{DNS: d, RootCAs: w.Roots, Timeout: 3 * time.Second, AllowPrivate: allowPrivate, Concurrency: concurrency})
}

// worldEnricher is an enricher with the world's scanner on the world's
// clock: it judges certificates and security.txt by the date they were
// made from.
func worldEnricher(t testing.TB, w *scantest.World, allowPrivate bool, concurrency int) *enrich.Enricher {
	t.Helper()
	return enrich.New(enrich.Config{Scanner: worldScanner(t, w, allowPrivate, concurrency), Now: w.Now})
}

// scanVendor scans domain with e, a vendor of the world w dated by its clock.
func scanVendor(t testing.TB, w *scantest.World, e *enrich.Enricher, domain string) (vendors.Vendor, vendors.Profile, []vendors.SecurityInstance) {
	t.Helper()
	v, err := vendors.New(uuid.New(), domain, "https://"+domain+"/", w.Now())
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Enrich(context.Background(), v, vendors.NewProfile(uuid.New(), v.ID, w.Now()), []vendors.Section{vendors.SectionSecurity})
	if err != nil {
		t.Fatal(err)
	}
	return v, res.Profile, res.Instances
}

// TestScanWorld scans every site of the fixture world and checks the exact
// set of codes it records, that every instance is complete, which sites
// are rated at all, and that a worse site never rates higher.
func TestScanWorld(t *testing.T) {
	t.Parallel()
	sites := worldSites()
	var all []scantest.Site
	for _, s := range sites {
		all = append(all, s.site)
	}
	w := scantest.Start(t, testenv.Clock(t), all...)
	e := worldEnricher(t, w, true, 4)

	type scanned struct {
		codes  []string
		rating *int
	}
	results := make([]scanned, len(sites))
	t.Run("sites", func(t *testing.T) {
		for i, s := range sites {
			domain := cmp.Or(s.domain, s.site.Domain)
			t.Run(domain, func(t *testing.T) {
				t.Parallel()
				v, prof, is := scanVendor(t, w, e, domain)
				var codes []string
				for _, in := range is {
					codes = append(codes, in.Code)
					info, ok := vendors.LookupCode(in.Code)
					if !ok || in.Kind != info.Kind || in.Category != info.Category || in.Severity != info.Severity || in.Title != info.Title {
						t.Errorf("instance %+v does not match the catalog %+v", in, info)
					}
					if in.ID == uuid.Nil || in.VendorID != v.ID || in.Evidence == "" || in.ObservedAt.IsZero() {
						t.Errorf("incomplete instance %+v", in)
					}
					if in.Source == "" {
						t.Errorf("%s has no source", in.Code)
					}
					if word, ok := s.evidence[in.Code]; ok && !strings.Contains(in.Evidence, word) {
						t.Errorf("%s evidence %q lacks %q", in.Code, in.Evidence, word)
					}
					if s.secret != "" && strings.Contains(in.Evidence, s.secret) {
						t.Errorf("%s evidence %q repeats the value %q", in.Code, in.Evidence, s.secret)
					}
				}
				got, want := slices.Sorted(slices.Values(codes)), slices.Sorted(slices.Values(s.want))
				if !slices.Equal(got, want) {
					t.Fatalf("codes =\n %v\nwant\n %v", got, want)
				}
				st := prof.Enrichment[vendors.SectionSecurity]
				if s.rated != (st.Status == "done") {
					t.Errorf("security section = %+v, rated %v", st, s.rated)
				}
				r := vendors.Rate(is)
				if s.rated != (r.Score != nil) {
					t.Errorf("rating = %v, want rated %v", r.Score, s.rated)
				}
				results[i] = scanned{codes: codes, rating: r.Score}
				if r.Score != nil {
					t.Logf("rating %d (%s), domains %+v", *r.Score, vendors.Recommend(*r.Score, r.Worst, r.Coverage), r.Domains)
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	byDomain := map[string]scanned{}
	for i, s := range sites {
		byDomain[cmp.Or(s.domain, s.site.Domain)] = results[i]
	}
	// The hand-made order of the three graded sites.
	if g, f, wk := *byDomain["good.test"].rating, *byDomain["fair.test"].rating, *byDomain["weak.test"].rating; !(g == 100 && g > f && f > wk) {
		t.Errorf("ratings good %d, fair %d, weak %d: want 100 > fair > weak", g, f, wk)
	}
	// Monotonicity over every pair: a site whose findings include another's,
	// with no more positives and the same checks run, rates no higher.
	split := func(codes []string) (bad, good, skipped []string) {
		for _, c := range codes {
			info, _ := vendors.LookupCode(c)
			switch {
			case vendors.IsNotChecked(c):
				skipped = append(skipped, c)
			case info.Kind == vendors.KindFinding:
				bad = append(bad, c)
			default:
				good = append(good, c)
			}
		}
		return bad, good, skipped
	}
	subset := func(a, b []string) bool {
		for _, x := range a {
			if !slices.Contains(b, x) {
				return false
			}
		}
		return true
	}
	pairs := 0
	for da, a := range byDomain {
		for db, b := range byDomain {
			if da == db || a.rating == nil || b.rating == nil {
				continue
			}
			aBad, aGood, aSkip := split(a.codes)
			bBad, bGood, bSkip := split(b.codes)
			if subset(aBad, bBad) && subset(bGood, aGood) && subset(aSkip, bSkip) && subset(bSkip, aSkip) {
				pairs++
				if *b.rating > *a.rating {
					t.Errorf("%s (%d) is worse than %s (%d) but rates higher", db, *b.rating, da, *a.rating)
				}
			}
		}
	}
	if pairs < 6 {
		t.Errorf("only %d comparable pairs: the world no longer tests monotonicity", pairs)
	}
}

// TestScanFillsProfile checks the signals and links a scan of the good
// site leaves on the profile, and that a blind scan leaves the signals
// unknown rather than false.
func TestScanFillsProfile(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), scantest.Good("good.test"))
	blind := scantest.Good("blind.test")
	blind.DNS = scantest.DNSServfail
	w2 := scantest.Start(t, testenv.Clock(t), blind)
	e := worldEnricher(t, w, true, 2)
	_, p, _ := scanVendor(t, w, e, "good.test")
	sig := p.Security.ExternalSignals
	for name, b := range map[string]*bool{"tls": sig.TLS, "hsts": sig.HSTS, "security_headers": sig.SecurityHeaders, "spf": sig.SPF,
		"dmarc": sig.DMARC, "dnssec": sig.DNSSEC, "caa": sig.CAA, "mta_sts": sig.MTASTS, "security_txt": sig.SecurityTxt} {
		if b == nil || !*b {
			t.Errorf("signal %s = %v, want true", name, b)
		}
	}
	if _, err := time.Parse(time.RFC3339, sig.TLSExpiresAt); err != nil {
		t.Errorf("tls_expires_at = %q", sig.TLSExpiresAt)
	}
	for field, got := range map[string]string{
		"https://good.test/legal/privacy": p.Privacy.PrivacyPolicyURL, "https://good.test/legal/terms": p.Company.TosURL,
		"https://trust.good.test/": p.Security.TrustCenterURL, "https://status.good.test/": p.Security.StatusPageURL,
	} {
		if got != field {
			t.Errorf("link = %q, want %q", got, field)
		}
	}

	e2 := worldEnricher(t, w2, true, 2)
	_, p, is := scanVendor(t, w2, e2, "blind.test")
	if p.Security.ExternalSignals != (vendors.ExternalSignals{}) {
		t.Errorf("signals of a blind scan = %+v, want all unknown", p.Security.ExternalSignals)
	}
	if st := p.Enrichment[vendors.SectionSecurity]; st.Status != "failed" || !strings.Contains(st.Error, "no security check could run") || !strings.Contains(st.Error, "SERVFAIL") {
		t.Errorf("security section = %+v", st)
	}
	if len(is) != len(vendors.Checks()) {
		t.Errorf("%d instances, want one not-checked signal per check", len(is))
	}
}

// TestScanRefusesPrivateTargets scans the good site with the fetch policy
// on (loopback refused): no connection is made, every web check says why,
// and the DNS checks still run.
func TestScanRefusesPrivateTargets(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), scantest.Good("good.test"))
	e := worldEnricher(t, w, false, 1)
	_, _, is := scanVendor(t, w, e, "good.test")
	want := plus(webNotChecked, "dmarc_enforced", "caa_present", "mta_sts_not_checked")
	var got []string
	for _, in := range is {
		got = append(got, in.Code)
		if vendors.IsNotChecked(in.Code) && !strings.Contains(in.Evidence, "refused: "+w.Addr("good.test").String()+" is a loopback address") {
			t.Errorf("%s evidence = %q", in.Code, in.Evidence)
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Fatalf("codes = %v\nwant %v", got, want)
	}
	if w.Peak() != 0 {
		t.Fatalf("a refused scan reached the site (%d requests)", w.Peak())
	}
}

// TestScanConcurrencyIsBounded holds every request of the world while ten
// scans start through a scanner that runs two at a time: two requests
// arrive (one per running scan: the site receives no mail, so no MTA-STS
// policy is fetched) and no third while they are held; released, all ten
// finish.
func TestScanConcurrencyIsBounded(t *testing.T) {
	t.Parallel()
	site := scantest.Good("busy.test")
	site.MX = nil
	w := scantest.Start(t, testenv.Clock(t), site)
	e := worldEnricher(t, w, true, 2)
	release := w.Hold()
	defer release()
	done := make(chan int, 10)
	for i := range 10 {
		go func() {
			_, _, is := scanVendor(t, w, e, fmt.Sprintf("v%d.busy.test", i))
			done <- len(is)
		}()
	}
	waitFor(t, func() bool { return w.InFlight() >= 2 })
	// Give a scan that slipped past the limit time to show up.
	time.Sleep(200 * time.Millisecond)
	if n := w.InFlight(); n != 2 {
		t.Fatalf("%d requests held at once, want 2", n)
	}
	release()
	for range 10 {
		if n := <-done; n == 0 {
			t.Error("a scan recorded nothing")
		}
	}
	// A running scan makes at most five requests at once (security.txt
	// beside the four exposed-file probes), so two make at most ten.
	if p := w.Peak(); p > 2*5 {
		t.Fatalf("peak %d requests at once, want at most 10 (two scans)", p)
	}
}

// waitFor polls cond until it holds, failing after 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
