package app

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrConfig marks an invalid setting; every message names the variable.
var ErrConfig = errors.New("invalid configuration")

// envReader reads settings through lookup and collects every invalid one,
// so that one run of `vetted check-config` reports them all. A malformed
// value is an error, never a silent fallback to the default.
type envReader struct {
	lookup func(string) (string, bool)
	errs   []error
}

func (e *envReader) raw(k string) string {
	v, _ := e.lookup(k)
	return strings.TrimSpace(v)
}

func (e *envReader) fail(k, v, why string) {
	e.errs = append(e.errs, fmt.Errorf("%s=%q: %s: %w", k, v, why, ErrConfig))
}

func (e *envReader) err() error { return errors.Join(e.errs...) }

// str returns the value of k, or def when it is unset or blank.
func (e *envReader) str(k, def string) string {
	if v := e.raw(k); v != "" {
		return v
	}
	return def
}

// bool accepts what strconv.ParseBool does (1, t, true, 0, f, false ...).
func (e *envReader) bool(k string, def bool) bool {
	v := e.raw(k)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		e.fail(k, v, "not a boolean (use true or false)")
		return def
	}
	return b
}

func (e *envReader) int(k string, def, lo int) int {
	v := e.raw(k)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo {
		e.fail(k, v, fmt.Sprintf("not an integer >= %d", lo))
		return def
	}
	return n
}

func (e *envReader) float(k string, def float64) float64 {
	v := e.raw(k)
	if v == "" {
		return def
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		e.fail(k, v, "not a number")
		return def
	}
	return n
}

func (e *envReader) duration(k string, def time.Duration) time.Duration {
	v := e.raw(k)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		e.fail(k, v, "not a duration such as 90s, 15m or 24h")
		return def
	}
	return d
}

// positiveDuration is duration for a setting where zero makes no sense.
func (e *envReader) positiveDuration(k string, def time.Duration) time.Duration {
	d := e.duration(k, def)
	if d == 0 {
		e.fail(k, e.raw(k), "must be longer than 0s")
		return def
	}
	return d
}

// addr reads a listen address host:port (host may be empty: all interfaces).
func (e *envReader) addr(k, def string) string {
	v := e.str(k, def)
	if v == "" {
		return ""
	}
	if err := checkListenAddr(v); err != nil {
		e.fail(k, v, err.Error())
		return def
	}
	return v
}

func checkListenAddr(v string) error {
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return errors.New("not a listen address host:port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return errors.New("port is not a number from 0 to 65535")
	}
	if host != "" && net.ParseIP(host) == nil && strings.ContainsAny(host, "/?#@ ") {
		return errors.New("host is neither an IP address nor a name")
	}
	return nil
}

// url reads an absolute URL whose scheme is one of schemes; unset is "".
func (e *envReader) url(k string, schemes ...string) string {
	v := e.raw(k)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	switch {
	case err != nil:
		e.fail(k, redact(v), "not a URL")
	case !slices.Contains(schemes, u.Scheme):
		e.fail(k, redact(v), "scheme must be one of "+strings.Join(schemes, ", "))
	case u.Host == "" || u.Hostname() == "":
		e.fail(k, redact(v), "URL has no host")
	default:
		return v
	}
	return ""
}

func (e *envReader) oneOf(k, def string, values ...string) string {
	v := strings.ToLower(e.str(k, def))
	if !slices.Contains(values, v) {
		e.fail(k, v, "must be one of "+strings.Join(values, ", "))
		return def
	}
	return v
}

func (e *envReader) level(k string, def slog.Level) slog.Level {
	v := e.raw(k)
	if v == "" {
		return def
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(v)); err != nil {
		e.fail(k, v, "must be debug, info, warn or error")
		return def
	}
	return l
}

// Redact hides a URL's password so that it can be printed or logged.
func Redact(v string) string { return redact(v) }

func redact(v string) string {
	u, err := url.Parse(v)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// publicURLFor derives the base URL of links from the listen address. A
// listen address without a host, or on all interfaces, has no name others
// could use; links then point at localhost, and the operator is expected to
// set VETTED_PUBLIC_URL (check-config warns).
func publicURLFor(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen
	}
	if unspecified(host) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func unspecified(host string) bool {
	if host == "" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// checkPublicURL validates VETTED_PUBLIC_URL: an absolute http(s) URL with a
// host, no query or fragment; links are built by appending paths to it.
func checkPublicURL(v string) (string, error) {
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return "", errors.New("not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("scheme must be http or https")
	case u.Hostname() == "":
		return "", errors.New("URL has no host")
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", errors.New("URL must not carry a query, fragment or user")
	}
	return strings.TrimRight(v, "/"), nil
}
