package enrich

import (
	"fmt"
	"maps"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The parsers of the scan: each reads one record or header and says which
// catalog code, if any, it earns and why. They are pure, so the tests can
// feed them every shape a real site serves.

// verdict is one code with the evidence for it; an empty code is a pass.
type verdict struct {
	code     string
	evidence string
}

// spfRecords picks the SPF records among a name's TXT records.
func spfRecords(txt []string) []string {
	var out []string
	for _, t := range txt {
		l := strings.ToLower(strings.TrimSpace(t))
		if l == "v=spf1" || strings.HasPrefix(l, "v=spf1 ") {
			out = append(out, strings.TrimSpace(t))
		}
	}
	return out
}

var spfModifierName = regexp.MustCompile(`^[a-z][a-z0-9_.-]*$`)

// checkSPF reads the SPF records of a domain (RFC 7208): none is
// spf_missing; several, or a term that does not parse, spf_malformed; an
// `all` that passes or is neutral (+all, all, ?all), or no `all` and no
// redirect (neutral by default, §4.7), spf_permissive; ~all spf_softfail.
func checkSPF(name string, txt []string) verdict {
	recs := spfRecords(txt)
	switch len(recs) {
	case 0:
		return verdict{"spf_missing", fmt.Sprintf("no TXT record starting with v=spf1 at %s (TXT records: %s)", name, quoteAll(txt))}
	case 1:
	default:
		return verdict{"spf_malformed", fmt.Sprintf("%d SPF records at %s (RFC 7208 §4.5: permerror): %s", len(recs), name, quoteAll(recs))}
	}
	rec := recs[0]
	ev := name + ": " + strconv.Quote(rec)
	allQ, redirect := "", false
	seenMod := map[string]bool{}
	for _, term := range strings.Fields(rec)[1:] {
		t := strings.ToLower(term)
		if k, v, ok := strings.Cut(t, "="); ok && !strings.ContainsAny(k, ":/") {
			if !spfModifierName.MatchString(k) {
				return verdict{"spf_malformed", fmt.Sprintf("%s: bad modifier %q", ev, term)}
			}
			if (k == "redirect" || k == "exp") && (v == "" || seenMod[k]) {
				return verdict{"spf_malformed", fmt.Sprintf("%s: bad or repeated %s modifier", ev, k)}
			}
			seenMod[k], redirect = true, redirect || k == "redirect"
			continue
		}
		q := "+"
		if strings.ContainsAny(t[:1], "+-~?") {
			q, t = t[:1], t[1:]
		}
		mech, arg, hasArg := strings.Cut(t, ":")
		if i := strings.IndexByte(mech, '/'); i >= 0 && !hasArg {
			mech, arg = mech[:i], mech[i:]
		}
		if err := spfMechanism(mech, arg, hasArg); err != "" {
			return verdict{"spf_malformed", fmt.Sprintf("%s: %q %s", ev, term, err)}
		}
		if mech == "all" && allQ == "" {
			allQ = q
		}
	}
	switch allQ {
	case "+", "?":
		return verdict{"spf_permissive", fmt.Sprintf("%s: %sall lets any host send", ev, allQ)}
	case "~":
		return verdict{"spf_softfail", ev + ": ~all only marks other senders as suspicious"}
	case "":
		if !redirect {
			return verdict{"spf_permissive", ev + ": no all mechanism and no redirect, so other senders get the neutral default result (RFC 7208 §4.7), as with ?all"}
		}
	}
	return verdict{}
}

// spfMechanism checks one mechanism and its argument; it returns why it is
// malformed, or "".
func spfMechanism(mech, arg string, hasArg bool) string {
	switch mech {
	case "all":
		if arg != "" {
			return "takes no argument"
		}
	case "include", "exists":
		if !hasArg || arg == "" {
			return "needs a domain"
		}
	case "a", "mx", "ptr":
		if hasArg && arg == "" {
			return "has an empty domain"
		}
	case "ip4", "ip6":
		if !hasArg {
			return "needs an address"
		}
		ip, bits, hasBits := strings.Cut(arg, "/")
		addr, err := netip.ParseAddr(ip)
		if err != nil || addr.Is4() != (mech == "ip4") {
			return "has a bad address"
		}
		if hasBits {
			n, err := strconv.Atoi(bits)
			if err != nil || n < 0 || n > addr.BitLen() {
				return "has a bad prefix length"
			}
		}
	default:
		return "is not an SPF mechanism"
	}
	return ""
}

func quoteAll(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// tags reads `k=v; k=v` records (DMARC, MTA-STS TXT), keys lower-cased.
func tags(rec string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(rec, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			out[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	return out
}

// withVersion picks the records whose first tag is v=<version>.
func withVersion(txt []string, version string) []string {
	var out []string
	for _, t := range txt {
		first, _, _ := strings.Cut(t, ";")
		k, v, _ := strings.Cut(first, "=")
		if strings.EqualFold(strings.TrimSpace(k), "v") && strings.TrimSpace(v) == version {
			out = append(out, strings.TrimSpace(t))
		}
	}
	return out
}

// checkDMARC reads the DMARC records at _dmarc.<domain> (RFC 7489): none,
// or several (§6.6.3: then no policy applies), is dmarc_missing; p=none, or
// no valid p, dmarc_policy_none; quarantine or reject dmarc_enforced.
func checkDMARC(name string, txt []string) verdict {
	recs := withVersion(txt, "DMARC1")
	switch len(recs) {
	case 0:
		return verdict{"dmarc_missing", fmt.Sprintf("no TXT record starting with v=DMARC1 at %s", name)}
	case 1:
	default:
		return verdict{"dmarc_missing", fmt.Sprintf("%d DMARC records at %s, so none applies (RFC 7489 §6.6.3): %s", len(recs), name, quoteAll(recs))}
	}
	ev := name + ": " + strconv.Quote(recs[0])
	switch p := strings.ToLower(tags(recs[0])["p"]); p {
	case "quarantine", "reject":
		return verdict{"dmarc_enforced", ev}
	case "none":
		return verdict{"dmarc_policy_none", ev + ": p=none only monitors"}
	default:
		return verdict{"dmarc_policy_none", ev + ": no valid p= tag, so receivers apply none"}
	}
}

// mtaSTSPolicy reads an MTA-STS policy file (RFC 8461 §3.2) and returns
// its mode, or "" when the file is not a valid STSv1 policy.
func mtaSTSPolicy(body string) string {
	fields := map[string]string{}
	for _, line := range strings.Split(body, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok {
			fields[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	if fields["version"] != "STSv1" {
		return ""
	}
	switch m := fields["mode"]; m {
	case "enforce", "testing", "none":
		return m
	}
	return ""
}

// oneYear is the HSTS max-age the preload list asks for.
const oneYear = 31536000

// checkHSTS reads Strict-Transport-Security (RFC 6797 §6.1): absent, or
// without a positive max-age, is hsts_missing; under a year
// hsts_short_max_age; a year or more with includeSubDomains and preload
// hsts_preload_ready; otherwise a pass.
func checkHSTS(h http.Header, url string) verdict {
	v := h.Get("Strict-Transport-Security")
	if v == "" {
		return verdict{"hsts_missing", "no Strict-Transport-Security header on " + url}
	}
	ev := "Strict-Transport-Security: " + v + " on " + url
	maxAge, sub, preload := -1, false, false
	for _, d := range strings.Split(v, ";") {
		k, val, _ := strings.Cut(strings.TrimSpace(d), "=")
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "max-age":
			if n, err := strconv.Atoi(strings.Trim(strings.TrimSpace(val), `"`)); err == nil && n >= 0 {
				maxAge = n
			}
		case "includesubdomains":
			sub = true
		case "preload":
			preload = true
		}
	}
	switch {
	case maxAge <= 0:
		return verdict{"hsts_missing", ev + ": no positive max-age, so HSTS is off"}
	case maxAge < oneYear:
		return verdict{"hsts_short_max_age", fmt.Sprintf("%s: max-age %d s is under a year (%d s)", ev, maxAge, oneYear)}
	case sub && preload:
		return verdict{"hsts_preload_ready", ev}
	}
	return verdict{}
}

// csp is a Content-Security-Policy, directive name to sources.
type csp map[string][]string

func parseCSP(h http.Header) csp {
	vals := h.Values("Content-Security-Policy")
	if len(vals) == 0 {
		return nil
	}
	out := csp{}
	for _, v := range vals {
		for _, d := range strings.Split(v, ";") {
			f := strings.Fields(d)
			if len(f) == 0 {
				continue
			}
			name := strings.ToLower(f[0])
			if _, dup := out[name]; !dup { // the first occurrence wins
				out[name] = f[1:]
			}
		}
	}
	return out
}

// checkCSP: no policy is csp_missing; 'unsafe-inline' (unless a nonce or
// hash makes browsers ignore it), 'unsafe-eval' or a bare * source in any
// directive is csp_unsafe.
func checkCSP(h http.Header, url string) verdict {
	c := parseCSP(h)
	if c == nil {
		return verdict{"csp_missing", "no Content-Security-Policy header on " + url}
	}
	var unsafe []string
	for _, name := range slices.Sorted(maps.Keys(c)) {
		srcs := c[name]
		nonceOrHash := false
		for _, s := range srcs {
			l := strings.ToLower(s)
			if strings.HasPrefix(l, "'nonce-") || strings.HasPrefix(l, "'sha256-") || strings.HasPrefix(l, "'sha384-") || strings.HasPrefix(l, "'sha512-") {
				nonceOrHash = true
			}
		}
		for _, s := range srcs {
			switch strings.ToLower(s) {
			case "'unsafe-inline'":
				if !nonceOrHash {
					unsafe = append(unsafe, s+" in "+name)
				}
			case "'unsafe-eval'", "*":
				unsafe = append(unsafe, s+" in "+name)
			}
		}
	}
	if len(unsafe) > 0 {
		return verdict{"csp_unsafe", fmt.Sprintf("Content-Security-Policy: %s on %s: %s", strings.Join(h.Values("Content-Security-Policy"), ", "), url, strings.Join(unsafe, ", "))}
	}
	return verdict{}
}

// checkFraming: X-Frame-Options DENY or SAMEORIGIN, or CSP frame-ancestors,
// protects against framing; anything else is x_frame_options_missing.
func checkFraming(h http.Header, url string) verdict {
	if _, ok := parseCSP(h)["frame-ancestors"]; ok {
		return verdict{}
	}
	switch v := strings.TrimSpace(h.Get("X-Frame-Options")); {
	case strings.EqualFold(v, "DENY"), strings.EqualFold(v, "SAMEORIGIN"):
		return verdict{}
	case v != "":
		return verdict{"x_frame_options_missing", fmt.Sprintf("X-Frame-Options: %s on %s is not DENY or SAMEORIGIN, and the CSP has no frame-ancestors", v, url)}
	}
	return verdict{"x_frame_options_missing", "no X-Frame-Options header and no CSP frame-ancestors on " + url}
}

// checkNoSniff: X-Content-Type-Options must be nosniff.
func checkNoSniff(h http.Header, url string) verdict {
	v := strings.TrimSpace(h.Get("X-Content-Type-Options"))
	if strings.EqualFold(v, "nosniff") {
		return verdict{}
	}
	if v == "" {
		return verdict{"x_content_type_options_missing", "no X-Content-Type-Options header on " + url}
	}
	return verdict{"x_content_type_options_missing", fmt.Sprintf("X-Content-Type-Options: %s on %s is not nosniff", v, url)}
}

// versionRe finds a version number in a product token: Apache/2.4.41,
// PHP/8, nginx/1.18.0, "Microsoft-IIS/10.0" (not an opaque id like nyb/1D2E).
var versionRe = regexp.MustCompile(`(?i)/v?\d+(?:\.\d+)*(?:$|[\s;,()\-+_~])`)

// checkServerVersion: a version number in Server or X-Powered-By is
// server_version_disclosed.
func checkServerVersion(h http.Header, url string) verdict {
	var seen []string
	for _, name := range []string{"Server", "X-Powered-By"} {
		for _, v := range h.Values(name) {
			if versionRe.MatchString(v) {
				seen = append(seen, name+": "+v)
			}
		}
	}
	if len(seen) == 0 {
		return verdict{}
	}
	return verdict{"server_version_disclosed", strings.Join(seen, "; ") + " on " + url}
}

// checkSecurityTxt reads a security.txt (RFC 9116): it needs at least one
// Contact and exactly one Expires (RFC 3339) field; an Expires in the past
// is security_txt_expired.
func checkSecurityTxt(body string, url string, now time.Time) verdict {
	var contacts, expires []string
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "contact":
			contacts = append(contacts, strings.TrimSpace(v))
		case "expires":
			expires = append(expires, strings.TrimSpace(v))
		}
	}
	switch {
	case len(contacts) == 0:
		return verdict{"security_txt_missing", url + " has no Contact field (RFC 9116 §2.5.3)"}
	case len(expires) != 1:
		return verdict{"security_txt_missing", fmt.Sprintf("%s has %d Expires fields, RFC 9116 §2.5.5 requires exactly one", url, len(expires))}
	}
	exp, err := time.Parse(time.RFC3339, expires[0])
	if err != nil {
		return verdict{"security_txt_missing", fmt.Sprintf("%s: Expires %q is not an RFC 3339 date-time", url, expires[0])}
	}
	ev := fmt.Sprintf("%s: Contact: %s; Expires: %s", url, strings.Join(contacts, ", "), expires[0])
	if !now.Before(exp) {
		return verdict{"security_txt_expired", ev + " (in the past)"}
	}
	return verdict{"security_txt_present", ev}
}
