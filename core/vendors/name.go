package vendors

import (
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Name is a canonical vendor name: trimmed, inner whitespace collapsed, and
// trailing legal suffixes (Inc, LLC, GmbH ...) dropped. Names compare
// case-insensitively through Key.
type Name string

// MaxNameLen bounds a vendor name.
const MaxNameLen = 200

var legalSuffix = regexp.MustCompile(`(?i)[\s,]+(inc|incorporated|llc|l\.l\.c|ltd|limited|gmbh|corp|corporation|co|company|plc|s\.?a|s\.?a\.?s|ag|b\.?v|n\.?v|s\.?r\.?l|oy|ab|as|pty|pte|kk|spa|sarl|s\.?l|lp|llp)\.?$`)

// ParseName canonicalises a raw vendor name.
func ParseName(raw string) (Name, error) {
	s, err := core.PlainText("VendorName", raw, 4*MaxNameLen)
	if err != nil {
		return "", err
	}
	for {
		t := legalSuffix.ReplaceAllString(s, "")
		t = strings.TrimRight(t, " ,")
		if t == s || t == "" {
			break
		}
		s = t
	}
	if s == "" {
		return "", core.Invalid("VendorName", "must not be empty")
	}
	if utf8.RuneCountInString(s) > MaxNameLen {
		return "", core.Invalid("VendorName", "must be at most %d characters", MaxNameLen)
	}
	return Name(s), nil
}

// String returns the name.
func (n Name) String() string { return string(n) }

// Key is the case-insensitive lookup key of the name.
func (n Name) Key() string { return strings.ToLower(string(n)) }

// NormalizeWebsite validates an http(s) URL and returns it with its host name
// (without "www."), which is the vendor's domain. An empty input is allowed.
func NormalizeWebsite(raw string) (website, domain string, err error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "", nil
	}
	if strings.IndexFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 || !utf8.ValidString(raw) {
		return "", "", core.Invalid("WebsiteURL", "must be a URL without spaces or control characters")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, perr := url.Parse(raw)
	if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return "", "", core.Invalid("WebsiteURL", "must be an http or https URL")
	}
	host := strings.ToLower(u.Hostname())
	if net.ParseIP(host) == nil && !isHostName(host) {
		return "", "", core.Invalid("WebsiteURL", "must name a public host")
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	if len(u.String()) > 2000 {
		return "", "", core.Invalid("WebsiteURL", "must be at most 2000 characters")
	}
	return u.String(), strings.TrimPrefix(host, "www."), nil
}

// isHostName reports whether host is a dotted DNS name: at most 253
// bytes, two labels or more, each of 1 to 63 letters, digits or hyphens (or
// letters of other scripts, for internationalised names), not beginning or
// ending with a hyphen. A trailing dot (the root) is allowed.
func isHostName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	if len(host) > 253 || len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return true
}

// Vendor is a directory entry. HasProfile is false for a custom vendor (one
// with no profile yet), which the API reports as is_custom.
type Vendor struct {
	ID         uuid.UUID
	Name       Name
	WebsiteURL string
	Domain     string
	Aliases    []string
	HasProfile bool
	CreatedAt  time.Time
}

// New builds a directory entry from a raw name and optional website.
func New(id uuid.UUID, rawName, website string, now time.Time) (Vendor, error) {
	n, err := ParseName(rawName)
	if err != nil {
		return Vendor{}, err
	}
	w, d, err := NormalizeWebsite(website)
	if err != nil {
		return Vendor{}, err
	}
	return Vendor{ID: id, Name: n, WebsiteURL: w, Domain: d, Aliases: []string{}, CreatedAt: now.UTC()}, nil
}

// VendorFromStore rebuilds a directory entry a store read, with whether it
// has a profile. Its name and website are not parsed again (they were when
// the entry was made, and a row written under older rules must still read),
// but it is normalised as New makes it: no aliases is an empty list, and its
// time is in UTC.
func VendorFromStore(id uuid.UUID, name, websiteURL, domain string, aliases []string, hasProfile bool, createdAt time.Time) Vendor {
	if aliases == nil {
		aliases = []string{}
	}
	return Vendor{ID: id, Name: Name(name), WebsiteURL: websiteURL, Domain: domain, Aliases: aliases, HasProfile: hasProfile, CreatedAt: createdAt.UTC()}
}

// NewFromRef is a new directory entry for a vendor a request named: the
// ref was parsed at the edge (ParseRefs), so nothing is parsed again.
func NewFromRef(id uuid.UUID, r VendorRef, now time.Time) Vendor {
	return Vendor{ID: id, Name: r.Name, WebsiteURL: r.WebsiteURL, Domain: r.Domain, Aliases: []string{}, CreatedAt: now.UTC()}
}

// IsCustom reports whether the vendor has no profile yet.
func (v Vendor) IsCustom() bool { return !v.HasProfile }
