package enrich_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
)

// parserCase is one input of a parser and the code it must give ("" for a
// pass), with words its evidence must contain.
type parserCase struct {
	name  string
	check func() (string, string)
	code  string
	words []string
}

func runParsers(t *testing.T, cases []parserCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, ev := tc.check()
			if code != tc.code {
				t.Fatalf("code = %q (%s), want %q", code, ev, tc.code)
			}
			if code != "" && ev == "" {
				t.Fatal("a code without evidence")
			}
			for _, w := range tc.words {
				if !strings.Contains(ev, w) {
					t.Errorf("evidence %q lacks %q", ev, w)
				}
			}
		})
	}
}

func spf(txt ...string) func() (string, string) {
	return func() (string, string) { return enrich.CheckSPF(txt) }
}
func dmarc(txt ...string) func() (string, string) {
	return func() (string, string) { return enrich.CheckDMARC(txt) }
}

func TestCheckSPF(t *testing.T) {
	t.Parallel()
	runParsers(t, []parserCase{
		{"strict", spf("v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.mail.test a mx:mx.acme.test/24 -all"), "", nil},
		{"no record", spf("google-site-verification=x"), "spf_missing", []string{"acme.test", "google-site-verification=x"}},
		{"no TXT at all", spf(), "spf_missing", []string{"none"}},
		{"v=spf10 is not SPF", spf("v=spf10 -all"), "spf_missing", nil},
		{"case-insensitive version and terms", spf("V=SPF1 MX -ALL"), "", nil},
		{"soft fail", spf("v=spf1 include:_spf.mail.test ~all"), "spf_softfail", []string{"~all"}},
		{"pass all", spf("v=spf1 +all"), "spf_permissive", []string{"+all"}},
		{"bare all passes", spf("v=spf1 mx all"), "spf_permissive", nil},
		{"neutral all", spf("v=spf1 ?all"), "spf_permissive", []string{"?all"}},
		{"no all is neutral", spf("v=spf1 mx"), "spf_permissive", []string{"§4.7"}},
		{"redirect without all", spf("v=spf1 redirect=_spf.acme.test"), "", nil},
		{"first all wins", spf("v=spf1 -all +all"), "", nil},
		{"two records", spf("v=spf1 -all", "v=spf1 mx -all"), "spf_malformed", []string{"2 SPF records"}},
		{"bad ip4", spf("v=spf1 ip4:300.1.1.1 -all"), "spf_malformed", []string{"ip4:300.1.1.1"}},
		{"ip6 in ip4", spf("v=spf1 ip4:2001:db8::1 -all"), "spf_malformed", nil},
		{"bad prefix", spf("v=spf1 ip4:192.0.2.0/33 -all"), "spf_malformed", []string{"prefix"}},
		{"unknown mechanism", spf("v=spf1 mxx -all"), "spf_malformed", []string{"not an SPF mechanism"}},
		{"include without domain", spf("v=spf1 include -all"), "spf_malformed", nil},
		{"repeated redirect", spf("v=spf1 redirect=a.test redirect=b.test"), "spf_malformed", nil},
		{"unknown modifier is fine", spf("v=spf1 foo=bar -all"), "", nil},
	})
}

func TestCheckDMARC(t *testing.T) {
	t.Parallel()
	runParsers(t, []parserCase{
		{"reject", dmarc("v=DMARC1; p=reject; rua=mailto:d@acme.test"), "dmarc_enforced", []string{"p=reject"}},
		{"quarantine", dmarc("v=DMARC1;p=quarantine"), "dmarc_enforced", nil},
		{"none", dmarc("v=DMARC1; p=none"), "dmarc_policy_none", []string{"monitors"}},
		{"no policy tag", dmarc("v=DMARC1; rua=mailto:d@acme.test"), "dmarc_policy_none", []string{"no valid p="}},
		{"missing", dmarc("something else"), "dmarc_missing", []string{"_dmarc.acme.test"}},
		{"two records", dmarc("v=DMARC1; p=reject", "v=DMARC1; p=none"), "dmarc_missing", []string{"2 DMARC records"}},
	})
}

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestCheckHeaders(t *testing.T) {
	t.Parallel()
	hsts := func(v string) func() (string, string) {
		return func() (string, string) { return enrich.CheckHSTS(header("Strict-Transport-Security", v)) }
	}
	csp := func(kv ...string) func() (string, string) {
		return func() (string, string) { return enrich.CheckCSP(header(kv...)) }
	}
	framing := func(kv ...string) func() (string, string) {
		return func() (string, string) { return enrich.CheckFraming(header(kv...)) }
	}
	sniff := func(kv ...string) func() (string, string) {
		return func() (string, string) { return enrich.CheckNoSniff(header(kv...)) }
	}
	server := func(kv ...string) func() (string, string) {
		return func() (string, string) { return enrich.CheckServerVersion(header(kv...)) }
	}
	runParsers(t, []parserCase{
		{"hsts absent", func() (string, string) { return enrich.CheckHSTS(http.Header{}) }, "hsts_missing", []string{"https://acme.test/"}},
		{"hsts max-age 0", hsts("max-age=0"), "hsts_missing", []string{"no positive max-age"}},
		{"hsts garbage", hsts("includeSubDomains"), "hsts_missing", nil},
		{"hsts a day", hsts("max-age=86400"), "hsts_short_max_age", []string{"86400"}},
		{"hsts a year, not preload", hsts("max-age=31536000; includeSubDomains"), "", nil},
		{"hsts preload ready", hsts(`max-age="63072000"; includeSubDomains; preload`), "hsts_preload_ready", []string{"preload"}},
		{"csp absent", csp(), "csp_missing", nil},
		{"csp report-only does not count", csp("Content-Security-Policy-Report-Only", "default-src 'self'"), "csp_missing", nil},
		{"csp strict", csp("Content-Security-Policy", "default-src 'self'; img-src https://cdn.acme.test"), "", nil},
		{"csp unsafe-inline", csp("Content-Security-Policy", "script-src 'self' 'unsafe-inline'"), "csp_unsafe", []string{"'unsafe-inline' in script-src"}},
		{"csp unsafe-inline beside a nonce is ignored by browsers", csp("Content-Security-Policy", "script-src 'nonce-abc' 'unsafe-inline'"), "", nil},
		{"csp unsafe-eval", csp("Content-Security-Policy", "script-src 'self' 'unsafe-eval'"), "csp_unsafe", []string{"'unsafe-eval'"}},
		{"csp any source", csp("Content-Security-Policy", "default-src *"), "csp_unsafe", []string{"* in default-src"}},
		{"csp two headers", csp("Content-Security-Policy", "default-src 'self'", "Content-Security-Policy", "img-src *"), "csp_unsafe", []string{"img-src"}},
		{"framing absent", framing(), "x_frame_options_missing", nil},
		{"framing DENY", framing("X-Frame-Options", "deny"), "", nil},
		{"framing SAMEORIGIN", framing("X-Frame-Options", "SAMEORIGIN"), "", nil},
		{"framing ALLOW-FROM is obsolete", framing("X-Frame-Options", "ALLOW-FROM https://x.test"), "x_frame_options_missing", []string{"ALLOW-FROM"}},
		{"framing by CSP", framing("Content-Security-Policy", "frame-ancestors 'self'"), "", nil},
		{"nosniff", sniff("X-Content-Type-Options", "nosniff"), "", nil},
		{"nosniff absent", sniff(), "x_content_type_options_missing", nil},
		{"nosniff wrong", sniff("X-Content-Type-Options", "sniff"), "x_content_type_options_missing", []string{"sniff"}},
		{"server plain", server("Server", "nginx"), "", nil},
		{"server opaque id", server("Server", "ECS (nyb/1D2E)"), "", nil},
		{"server version", server("Server", "Apache/2.4.41 (Ubuntu)"), "server_version_disclosed", []string{"Server: Apache/2.4.41 (Ubuntu)"}},
		{"powered-by version", server("X-Powered-By", "PHP/7.4.3-4ubuntu2.19"), "server_version_disclosed", []string{"X-Powered-By"}},
		{"iis", server("Server", "Microsoft-IIS/10.0"), "server_version_disclosed", nil},
	})
}

func TestCheckSecurityTxt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	txt := func(body string) func() (string, string) {
		return func() (string, string) { return enrich.CheckSecurityTxt(body, now) }
	}
	runParsers(t, []parserCase{
		{"valid", txt("# hi\nContact: mailto:s@acme.test\nContact: https://acme.test/sec\nExpires: 2027-01-01T00:00:00Z\n"), "security_txt_present", []string{"mailto:s@acme.test", "2027-01-01"}},
		{"expired", txt("Contact: mailto:s@acme.test\nExpires: 2020-01-01T00:00:00Z"), "security_txt_expired", []string{"in the past"}},
		{"no contact", txt("Expires: 2027-01-01T00:00:00Z"), "security_txt_missing", []string{"no Contact"}},
		{"no expires", txt("Contact: mailto:s@acme.test"), "security_txt_missing", []string{"0 Expires"}},
		{"two expires", txt("Contact: a\nExpires: 2027-01-01T00:00:00Z\nExpires: 2028-01-01T00:00:00Z"), "security_txt_missing", []string{"2 Expires"}},
		{"bad date", txt("Contact: a\nExpires: tomorrow"), "security_txt_missing", []string{"RFC 3339"}},
		{"an HTML page", txt("<html><body>Not found</body></html>"), "security_txt_missing", nil},
	})
}

func TestMTASTSMode(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		"version: STSv1\nmode: enforce\nmx: mx.acme.test\nmax_age: 86400\n":         "enforce",
		"version: STSv1\r\nmode: testing\r\nmx: mx.acme.test\r\nmax_age: 86400\r\n": "testing",
		"version: STSv1\nmode: none\n":                                              "none",
		"version: STSv2\nmode: enforce\n":                                           "",
		"mode: enforce\n":                                                           "",
		"version: STSv1\nmode: strict\n":                                            "",
	} {
		if got := enrich.MTASTSMode(body); got != want {
			t.Errorf("MTASTSMode(%q) = %q, want %q", body, got, want)
		}
	}
}
