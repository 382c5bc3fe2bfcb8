package enrich

import (
	"cmp"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// The parsers of the second catalog (issue 25): DMARC pct, SPF lookup
// terms, DKIM key records, cookies and the content of exposed files. Like
// those of parse.go they are pure.

// checkDMARCPartial reads the one DMARC record of a domain: a policy of
// quarantine or reject with a valid pct under 100 is dmarc_partial (RFC
// 7489 §6.3; an invalid pct is ignored, so the default 100 applies).
func checkDMARCPartial(name string, txt []string) verdict {
	recs := withVersion(txt, "DMARC1")
	if len(recs) != 1 {
		return verdict{}
	}
	t := tags(recs[0])
	switch p := strings.ToLower(t["p"]); p {
	case "quarantine", "reject":
		raw, set := t["pct"]
		pct, err := strconv.Atoi(raw)
		if !set || err != nil || pct < 0 || pct >= 100 {
			return verdict{}
		}
		return verdict{"dmarc_partial", fmt.Sprintf("%s: %q: p=%s applies to %d%% of the failing mail only; the rest gets the next weaker policy (RFC 7489 §6.3)",
			name, recs[0], p, pct)}
	}
	return verdict{}
}

// spfMaxLookups is the most DNS-querying terms an SPF evaluation may take
// (RFC 7208 §4.6.4).
const spfMaxLookups = 10

// spfLookupTerms lists the DNS-querying terms of an SPF record in order
// (include, a, mx, ptr, exists, and redirect when the record has no all
// mechanism, which makes it ignored, §6.1), and the domains whose records
// evaluating them reads: include targets and the redirect. A target with a
// macro (%{...}) depends on the message, so it is counted but not followed.
func spfLookupTerms(rec string) (terms, targets []string) {
	fields := strings.Fields(rec)
	if len(fields) == 0 {
		return nil, nil
	}
	hasAll := false
	for _, f := range fields[1:] {
		t := strings.TrimLeft(strings.ToLower(f), "+-~?")
		if t == "all" {
			hasAll = true
		}
	}
	redirect := ""
	for _, f := range fields[1:] {
		t := strings.ToLower(f)
		if k, v, ok := strings.Cut(t, "="); ok && !strings.ContainsAny(k, ":/") {
			if k == "redirect" && !hasAll && redirect == "" {
				redirect = v
			}
			continue
		}
		t = strings.TrimLeft(t, "+-~?")
		mech, arg, _ := strings.Cut(t, ":")
		if i := strings.IndexByte(mech, '/'); i >= 0 {
			mech = mech[:i]
		}
		switch mech {
		case "include":
			terms = append(terms, f)
			if !strings.Contains(arg, "%") && arg != "" {
				targets = append(targets, strings.TrimSuffix(arg, "."))
			}
		case "a", "mx", "ptr", "exists":
			terms = append(terms, f)
		}
	}
	if redirect != "" {
		terms = append(terms, "redirect="+redirect)
		if !strings.Contains(redirect, "%") {
			targets = append(targets, strings.TrimSuffix(redirect, "."))
		}
	}
	return terms, targets
}

// dkimCommonSelectors are the selectors the dkim check tries; the true ones
// cannot be known from outside (a signature names its selector, and we see
// no mail).
var dkimCommonSelectors = []string{"default", "google", "selector1", "selector2", "k1", "s1", "s2", "dkim", "mail"}

// dkimKey is what a TXT record at <selector>._domainkey says.
type dkimKey struct {
	// revoked: the p= tag is empty (RFC 6376 §3.6.1).
	revoked bool
	// keyType is the k= tag, "rsa" by default.
	keyType string
	// rsaBits is the RSA modulus length, 0 when unknown or not RSA.
	rsaBits int
}

// parseDKIM reads a TXT record as a DKIM key record (RFC 6376 §3.6.1): a
// tag list with a p= tag, whose v= (if any) is DKIM1 and comes first.
// Anything else is not a key record (ok false).
func parseDKIM(rec string) (k dkimKey, ok bool) {
	t := map[string]string{}
	first := ""
	for part := range strings.SplitSeq(rec, ";") {
		name, val, found := strings.Cut(strings.TrimSpace(part), "=")
		if !found {
			continue
		}
		name = strings.ToLower(strings.TrimSpace(name))
		if first == "" {
			first = name
		}
		if _, dup := t[name]; !dup {
			t[name] = strings.TrimSpace(val)
		}
	}
	if v, has := t["v"]; has && (v != "DKIM1" || first != "v") {
		return k, false
	}
	p, has := t["p"]
	if !has {
		return k, false
	}
	k.keyType = strings.ToLower(cmp.Or(t["k"], "rsa"))
	p = strings.Join(strings.Fields(p), "")
	if p == "" {
		k.revoked = true
		return k, true
	}
	if k.keyType != "rsa" {
		return k, true
	}
	der, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		return k, true
	}
	if pub, err := x509.ParsePKIXPublicKey(der); err == nil {
		if r, isRSA := pub.(*rsa.PublicKey); isRSA {
			k.rsaBits = r.N.BitLen()
		}
	} else if r, err := x509.ParsePKCS1PublicKey(der); err == nil {
		k.rsaBits = r.N.BitLen()
	}
	return k, true
}

// dkimMinBits is the smallest RSA key verifiers accept (RFC 8301 §3.2).
const dkimMinBits = 1024

// checkCookies reads the Set-Cookie headers of the https home page: a
// cookie without Secure, HttpOnly or a valid SameSite (Strict, Lax, None)
// is cookie_insecure (RFC 6265 §4.1.2.5-6; RFC 6265bis §4.1.2.7). The
// evidence names the cookies and what they lack, never their values. A
// line that does not parse sets no cookie, so it is ignored.
func checkCookies(h http.Header, url string) verdict {
	var bad []string
	for _, line := range h.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err != nil {
			continue
		}
		var lacks []string
		if !c.Secure {
			lacks = append(lacks, "Secure")
		}
		if !c.HttpOnly {
			lacks = append(lacks, "HttpOnly")
		}
		switch c.SameSite {
		case http.SameSiteLaxMode, http.SameSiteStrictMode, http.SameSiteNoneMode:
		default:
			lacks = append(lacks, "SameSite")
		}
		if len(lacks) > 0 {
			bad = append(bad, fmt.Sprintf("%s lacks %s", strconv.Quote(c.Name), strings.Join(lacks, ", ")))
		}
	}
	if len(bad) == 0 {
		return verdict{}
	}
	return verdict{"cookie_insecure", fmt.Sprintf("Set-Cookie on %s: %s", url, strings.Join(bad, "; "))}
}

// gitHeadRe is the content of .git/HEAD: a symbolic ref or a detached
// commit id (SHA-1 or SHA-256).
var gitHeadRe = regexp.MustCompile(`^(ref: refs/\S+|[0-9a-f]{40}|[0-9a-f]{64})$`)

// gitHead returns the body when it is the content of a .git/HEAD file.
func gitHead(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) > 300 || !gitHeadRe.MatchString(s) {
		return ""
	}
	return s
}

var envLineRe = regexp.MustCompile(`^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=`)

// envKeys returns the variable names of a body that is a dotenv file: not
// HTML, and more than half of its lines that are neither blank nor
// comments are KEY=value assignments. Values are never returned.
func envKeys(body []byte) []string {
	s := strings.TrimSpace(string(body))
	if s == "" || s[0] == '<' || strings.Contains(strings.ToLower(s[:min(len(s), 512)]), "<html") {
		return nil
	}
	var keys []string
	lines := 0
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines++
		if m := envLineRe.FindStringSubmatch(line); m != nil {
			keys = append(keys, m[1])
		}
	}
	if len(keys) == 0 || 2*len(keys) <= lines {
		return nil
	}
	return keys
}

var (
	apacheStatusRe = regexp.MustCompile(`Apache Server Status for [^<\n]*`)
	nginxStatusRe  = regexp.MustCompile(`(?m)^Active connections:\s*\d+\s*$`)
)

// serverStatus says which status page the body is: Apache's mod_status
// (HTML, or the ?auto text with its Scoreboard) or nginx's stub_status.
func serverStatus(body []byte) string {
	s := string(body)
	switch {
	case apacheStatusRe.MatchString(s):
		return "an Apache mod_status page (" + strconv.Quote(strings.TrimSpace(apacheStatusRe.FindString(s))) + ")"
	case strings.Contains(s, "Scoreboard: ") && strings.Contains(s, "Uptime: "):
		return "an Apache mod_status report (Uptime, Scoreboard)"
	case nginxStatusRe.MatchString(s) && strings.Contains(s, "server accepts handled requests"):
		return "an nginx stub_status page (" + strconv.Quote(strings.TrimSpace(nginxStatusRe.FindString(s))) + ")"
	}
	return ""
}

// weakSignatures are the leaf signature algorithms tls_weak_signature
// reports (RFC 9155 deprecates MD5 and SHA-1 in TLS 1.2 signatures).
var weakSignatures = map[x509.SignatureAlgorithm]bool{
	x509.MD2WithRSA: true, x509.MD5WithRSA: true, x509.SHA1WithRSA: true, x509.DSAWithSHA1: true, x509.ECDSAWithSHA1: true,
}

// tlsMinRSABits is the smallest RSA key the CA/Browser Forum Baseline
// Requirements (§6.1.5) allow in a certificate.
const tlsMinRSABits = 2048

// checkLeafKey: an RSA key under 2048 bits is tls_weak_key.
func checkLeafKey(leaf *x509.Certificate, desc string) verdict {
	if k, ok := leaf.PublicKey.(*rsa.PublicKey); ok && k.N.BitLen() < tlsMinRSABits {
		return verdict{"tls_weak_key", fmt.Sprintf("%s: its key is RSA %d bits, under the %d the CA/Browser Forum Baseline Requirements require",
			desc, k.N.BitLen(), tlsMinRSABits)}
	}
	return verdict{}
}

// checkLeafSignature: a leaf signed with MD2, MD5 or SHA-1 is
// tls_weak_signature.
func checkLeafSignature(leaf *x509.Certificate, desc string) verdict {
	if weakSignatures[leaf.SignatureAlgorithm] {
		return verdict{"tls_weak_signature", fmt.Sprintf("%s: signed with %s (RFC 9155)", desc, leaf.SignatureAlgorithm)}
	}
	return verdict{}
}
