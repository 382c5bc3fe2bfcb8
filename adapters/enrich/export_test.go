package enrich

import (
	"net/http"
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
