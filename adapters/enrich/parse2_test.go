package enrich_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
)

func TestCheckDMARCPartial(t *testing.T) {
	t.Parallel()
	partial := func(txt ...string) func() (string, string) {
		return func() (string, string) { return enrich.CheckDMARCPartial(txt) }
	}
	runParsers(t, []parserCase{
		{"quarantine on half", partial("v=DMARC1; p=quarantine; pct=50"), "dmarc_partial", []string{"50%", "p=quarantine"}},
		{"reject on none", partial("v=DMARC1; p=reject; pct=0"), "dmarc_partial", []string{"0%"}},
		{"99 is partial", partial("v=DMARC1; p=reject; pct=99"), "dmarc_partial", nil},
		{"100 is whole", partial("v=DMARC1; p=reject; pct=100"), "", nil},
		{"no pct is 100", partial("v=DMARC1; p=reject"), "", nil},
		{"an invalid pct is ignored", partial("v=DMARC1; p=reject; pct=half"), "", nil},
		{"out of range is ignored", partial("v=DMARC1; p=reject; pct=-5"), "", nil},
		{"p=none is not partial", partial("v=DMARC1; p=none; pct=10"), "", nil},
		{"several records apply none", partial("v=DMARC1; p=reject; pct=10", "v=DMARC1; p=reject; pct=10"), "", nil},
	})
}

func TestSPFLookupTerms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rec              string
		terms, followsTo []string
	}{
		{"v=spf1 ip4:192.0.2.1 ip6:2001:db8::1 -all", nil, nil},
		{"v=spf1 a mx/24 a:x.test ptr exists:%{i}.x.test include:_spf.x.test -all",
			[]string{"a", "mx/24", "a:x.test", "ptr", "exists:%{i}.x.test", "include:_spf.x.test"}, []string{"_spf.x.test"}},
		// The redirect counts and is followed only without an all (RFC 7208 §6.1).
		{"v=spf1 mx redirect=_r.x.test", []string{"mx", "redirect=_r.x.test"}, []string{"_r.x.test"}},
		{"v=spf1 mx ~all redirect=_r.x.test", []string{"mx"}, nil},
		// Qualifiers count; a macro target is counted but not followed.
		{"v=spf1 -include:a.test ~a ?mx include:%{d}.x.test -all", []string{"-include:a.test", "~a", "?mx", "include:%{d}.x.test"}, []string{"a.test"}},
		// Modifiers other than redirect and non-querying mechanisms do not count.
		{"v=spf1 exp=explain.x.test ip4:192.0.2.0/24 all", nil, nil},
	} {
		terms, targets := enrich.SPFLookupTerms(tc.rec)
		if !slices.Equal(terms, tc.terms) || !slices.Equal(targets, tc.followsTo) {
			t.Errorf("SPFLookupTerms(%q) = %q, %q; want %q, %q", tc.rec, terms, targets, tc.terms, tc.followsTo)
		}
	}
}

func TestParseDKIM(t *testing.T) {
	t.Parallel()
	split1024 := scantest.DKIMRecord(1024)
	for _, tc := range []struct {
		name, rec string
		ok        bool
		want      enrich.DKIMKey
	}{
		{"2048", scantest.DKIMRecord(2048), true, enrich.DKIMKey{KeyType: "rsa", RSABits: 2048}},
		{"1024", scantest.DKIMRecord(1024), true, enrich.DKIMKey{KeyType: "rsa", RSABits: 1024}},
		{"512", scantest.DKIMRecord(512), true, enrich.DKIMKey{KeyType: "rsa", RSABits: 512}},
		{"key split by whitespace", split1024[:40] + " \t" + split1024[40:], true, enrich.DKIMKey{KeyType: "rsa", RSABits: 1024}},
		{"revoked", "v=DKIM1; k=rsa; p=", true, enrich.DKIMKey{Revoked: true, KeyType: "rsa"}},
		{"revoked without v", "p=", true, enrich.DKIMKey{Revoked: true, KeyType: "rsa"}},
		{"ed25519", "v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=", true, enrich.DKIMKey{KeyType: "ed25519"}},
		{"undecodable key", "v=DKIM1; p=!!!", true, enrich.DKIMKey{KeyType: "rsa"}},
		{"no p tag", "v=DKIM1; k=rsa", false, enrich.DKIMKey{}},
		{"another version", "v=DKIM2; p=", false, enrich.DKIMKey{}},
		{"v not first", "p=; v=DKIM1", false, enrich.DKIMKey{}},
		{"an SPF record", "v=spf1 -all", false, enrich.DKIMKey{}},
	} {
		got, ok := enrich.ParseDKIM(tc.rec)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: ParseDKIM = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCheckCookies(t *testing.T) {
	t.Parallel()
	cookies := func(lines ...string) func() (string, string) {
		return func() (string, string) { return enrich.CheckCookies(http.Header{"Set-Cookie": lines}) }
	}
	runParsers(t, []parserCase{
		{"no cookie", cookies(), "", nil},
		{"every attribute", cookies("sid=v1; Path=/; Secure; HttpOnly; SameSite=Strict", "b=v2; secure; httponly; samesite=none"), "", nil},
		{"no Secure", cookies("sid=v1; HttpOnly; SameSite=Lax"), "cookie_insecure", []string{`"sid" lacks Secure`}},
		{"no HttpOnly", cookies("sid=v1; Secure; SameSite=Lax"), "cookie_insecure", []string{`"sid" lacks HttpOnly`}},
		{"no SameSite", cookies("sid=v1; Secure; HttpOnly"), "cookie_insecure", []string{`"sid" lacks SameSite`}},
		{"an invalid SameSite", cookies("sid=v1; Secure; HttpOnly; SameSite=sometimes"), "cookie_insecure", []string{"lacks SameSite"}},
		{"an empty SameSite", cookies("sid=v1; Secure; HttpOnly; SameSite"), "cookie_insecure", []string{"lacks SameSite"}},
		{"one bad among good", cookies("a=v1; Secure; HttpOnly; SameSite=Lax", "b=v2"), "cookie_insecure", []string{`"b" lacks Secure, HttpOnly, SameSite`}},
		{"a line that sets nothing", cookies("=; Secure"), "", nil},
	})
	if _, ev := enrich.CheckCookies(http.Header{"Set-Cookie": {"sid=hunter2; Path=/"}}); strings.Contains(ev, "hunter2") {
		t.Errorf("evidence %q repeats the cookie's value", ev)
	}
}

func TestExposedFileContent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		git        bool
		env        []string
		status     bool
	}{
		{"symbolic ref", "ref: refs/heads/main\n", true, nil, false},
		{"detached SHA-1", "0123456789abcdef0123456789abcdef01234567", true, nil, false},
		{"detached SHA-256", strings.Repeat("ab", 32), true, nil, false},
		{"a page about refs", "<html>ref: refs/heads/main</html>", false, nil, false},
		{"dotenv", "# prod\nAPP_ENV=prod\nexport DB_PASSWORD=x\n\nAPI.KEY = y\n", false, []string{"APP_ENV", "DB_PASSWORD", "API.KEY"}, false},
		{"mostly prose", "Hello there\nThis is a page\nA=1\n", false, nil, false},
		{"html with an assignment", "<!doctype html><script>a=1</script>", false, nil, false},
		{"apache", "<h1>Apache Server Status for acme.test (via 10.0.0.1)</h1>", false, nil, true},
		{"apache ?auto", "Total Accesses: 10\nUptime: 100\nScoreboard: __W_\n", false, nil, true},
		{"nginx", "Active connections: 2 \nserver accepts handled requests\n 5 5 9 \nReading: 0 Writing: 1 Waiting: 1 \n", false, nil, true},
		{"a status page of another kind", "<h1>All systems operational</h1>", false, nil, false},
	} {
		if got := enrich.GitHead(tc.body) != ""; got != tc.git {
			t.Errorf("%s: GitHead = %v, want %v", tc.name, got, tc.git)
		}
		if got := enrich.EnvKeys(tc.body); !slices.Equal(got, tc.env) {
			t.Errorf("%s: EnvKeys = %q, want %q", tc.name, got, tc.env)
		}
		if got := enrich.ServerStatus(tc.body) != ""; got != tc.status {
			t.Errorf("%s: ServerStatus = %v, want %v", tc.name, got, tc.status)
		}
	}
}

func TestActiveHTTP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"script, frame, stylesheet", `<script src="http://cdn.test/a.js"></script><iframe src="HTTP://v.test/e"></iframe>
<link rel="preload stylesheet" href="http://cdn.test/s.css">`,
			[]string{"<script src> http://cdn.test/a.js", "<iframe src> http://v.test/e", "<link rel=preload href> http://cdn.test/s.css"}},
		{"not mixed", `<a href="http://blog.test/">blog</a><script src="//cdn.test/a.js"></script><script src="/b.js"></script>
<link rel="canonical" href="http://acme.test/"><link rel="icon" href="http://acme.test/i.png"><img src="http://img.test/a.png">
<template><script src="http://cdn.test/t.js"></script></template><script>var u = "http://x.test/";</script>`, nil},
		{"an http base makes relative sources http", `<base href="http://acme.test/"><script src="/a.js"></script>`,
			[]string{"<script src> http://acme.test/a.js"}},
		{"each once", `<script src="http://cdn.test/a.js"></script><script src="http://cdn.test/a.js"></script>`,
			[]string{"<script src> http://cdn.test/a.js"}},
	} {
		if got := enrich.ActiveHTTP(tc.body); !slices.Equal(got, tc.want) {
			t.Errorf("%s: ActiveHTTP = %q, want %q", tc.name, got, tc.want)
		}
	}
}
