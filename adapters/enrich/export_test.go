package enrich

import (
	"net/http"
	"net/url"
	"time"
)

// The parsers, for the external tests: each returns the code it gives ("" for
// a pass) and its evidence.

func CheckSPF(txt []string) (string, string)   { return unpack(checkSPF("acme.test", txt)) }
func CheckDMARC(txt []string) (string, string) { return unpack(checkDMARC("_dmarc.acme.test", txt)) }
func CheckHSTS(h http.Header) (string, string) { return unpack(checkHSTS(h, "https://acme.test/")) }
func CheckCSP(h http.Header) (string, string)  { return unpack(checkCSP(h, "https://acme.test/")) }
func CheckFraming(h http.Header) (string, string) {
	return unpack(checkFraming(h, "https://acme.test/"))
}
func CheckNoSniff(h http.Header) (string, string) {
	return unpack(checkNoSniff(h, "https://acme.test/"))
}
func CheckServerVersion(h http.Header) (string, string) {
	return unpack(checkServerVersion(h, "https://acme.test/"))
}
func CheckSecurityTxt(body string, now time.Time) (string, string) {
	return unpack(checkSecurityTxt(body, "https://acme.test/.well-known/security.txt", now))
}

// MTASTSMode is the mode of an MTA-STS policy file, "" when invalid.
func MTASTSMode(body string) string { return mtaSTSPolicy(body) }

func unpack(v verdict) (string, string) { return v.code, v.evidence }

// The parsers of the second catalog.

func CheckDMARCPartial(txt []string) (string, string) {
	return unpack(checkDMARCPartial("_dmarc.acme.test", txt))
}
func CheckCookies(h http.Header) (string, string) {
	return unpack(checkCookies(h, "https://acme.test/"))
}

// SPFLookupTerms lists the DNS-querying terms of an SPF record and the
// domains evaluating them reads.
func SPFLookupTerms(rec string) (terms, targets []string) { return spfLookupTerms(rec) }

// DKIMKey is what a TXT record says as a DKIM key record.
type DKIMKey struct {
	Revoked bool
	KeyType string
	RSABits int
}

// ParseDKIM reads a TXT record as a DKIM key record; ok is false when it
// is none.
func ParseDKIM(rec string) (DKIMKey, bool) {
	k, ok := parseDKIM(rec)
	return DKIMKey{Revoked: k.revoked, KeyType: k.keyType, RSABits: k.rsaBits}, ok
}

func GitHead(body string) string      { return gitHead([]byte(body)) }
func EnvKeys(body string) []string    { return envKeys([]byte(body)) }
func ServerStatus(body string) string { return serverStatus([]byte(body)) }
func ActiveHTTP(body string) []string {
	return activeHTTP([]byte(body), &url.URL{Scheme: "https", Host: "acme.test", Path: "/"})
}
