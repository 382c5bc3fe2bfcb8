package vendors_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestParseName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		invalid  bool
	}{
		{in: "Acme", want: "Acme"},
		{in: "  Acme  ", want: "Acme"},
		{in: "Acme \t  Cloud\n Services", want: "Acme Cloud Services"},
		{in: "Acme Inc", want: "Acme"},
		{in: "Acme Inc.", want: "Acme"},
		{in: "Acme, Inc.", want: "Acme"},
		{in: "Acme INC", want: "Acme"},
		{in: "Acme LLC", want: "Acme"},
		{in: "Acme L.L.C.", want: "Acme"},
		{in: "Acme Ltd", want: "Acme"},
		{in: "Acme Ltd.", want: "Acme"},
		{in: "Acme Limited", want: "Acme"},
		{in: "Acme GmbH", want: "Acme"},
		{in: "Acme Corp", want: "Acme"},
		{in: "Acme Corp.", want: "Acme"},
		{in: "Acme Corporation", want: "Acme"},
		{in: "Acme PLC", want: "Acme"},
		{in: "Acme S.A.", want: "Acme"},
		{in: "Acme SA", want: "Acme"},
		{in: "Acme AG", want: "Acme"},
		{in: "Acme B.V.", want: "Acme"},
		{in: "Acme BV", want: "Acme"},
		{in: "Acme Holdings, Inc.", want: "Acme Holdings"},
		{in: "Acme Co., Ltd.", want: "Acme"},
		{in: "Acme Corp, Inc", want: "Acme"},
		{in: "Acme Inc, LLC", want: "Acme"},
		// A suffix inside the name is kept: only trailing ones are dropped.
		{in: "Incident.io", want: "Incident.io"},
		{in: "Acme Inc Tools", want: "Acme Inc Tools"},
		{in: "Agave", want: "Agave"},
		// A name that is itself a suffix is never emptied.
		{in: "Inc", want: "Inc"},
		{in: "Inc.", want: "Inc."},
		{in: "  LLC  ", want: "LLC"},
		{in: "Corp Inc", want: "Corp"},
		{in: "AG, Inc.", want: "AG"},
		{in: strings.Repeat("é", 200), want: strings.Repeat("é", 200)},
		{in: strings.Repeat("é", 200) + " Inc", want: strings.Repeat("é", 200)},
		{in: "", invalid: true},
		{in: "   ", invalid: true},
		{in: strings.Repeat("é", 201), invalid: true},
		{in: "Acme\x00", invalid: true},
		{in: "Ac\x1bme", invalid: true},
		{in: "Acme\x7f", invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := vendors.ParseName(tt.in)
			if tt.invalid {
				if !errors.Is(err, core.ErrInvalid) {
					t.Fatalf("ParseName(%q) = %q, %v; want ErrInvalid", tt.in, got, err)
				}
				if !strings.Contains(err.Error(), "VendorName") {
					t.Fatalf("error %q does not name VendorName", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseName(%q): %v", tt.in, err)
			}
			if got.String() != tt.want {
				t.Fatalf("ParseName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNameKeyIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	a, err := vendors.ParseName("GitHub, Inc.")
	if err != nil {
		t.Fatal(err)
	}
	b, err := vendors.ParseName("  github  ")
	if err != nil {
		t.Fatal(err)
	}
	if a.Key() != b.Key() || a.Key() != "github" {
		t.Fatalf("keys %q and %q, want both %q", a.Key(), b.Key(), "github")
	}
	if a.String() != "GitHub" {
		t.Fatalf("String() = %q, want the original case kept", a.String())
	}
}

func TestNormalizeWebsite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, website, domain string
		invalid             bool
	}{
		{in: "", website: "", domain: ""},
		{in: "   ", website: "", domain: ""},
		{in: "example.com", website: "https://example.com", domain: "example.com"},
		{in: "www.Example.com", website: "https://www.example.com", domain: "example.com"},
		{in: "HTTPS://WWW.EXAMPLE.COM/Path?q=1#frag", website: "https://www.example.com/Path?q=1", domain: "example.com"},
		{in: "http://example.com:8080/x", website: "http://example.com:8080/x", domain: "example.com"},
		{in: "https://status.example.co.uk", website: "https://status.example.co.uk", domain: "status.example.co.uk"},
		{in: "https://93.184.216.34/", website: "https://93.184.216.34/", domain: "93.184.216.34"},
		{in: "javascript:alert(1)", invalid: true},
		{in: "javascript://example.com/%0aalert(1)", invalid: true},
		{in: "ftp://example.com", invalid: true},
		{in: "ftp:example.com", invalid: true},
		{in: "mailto:a@example.com", invalid: true},
		{in: "https://user:pass@example.com", invalid: true},
		{in: "https://user@example.com", invalid: true},
		{in: "https://localhost", invalid: true},
		{in: "intranet", invalid: true},
		{in: "https://", invalid: true},
		{in: "https://example.com/" + strings.Repeat("a", 2000), invalid: true},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, d, err := vendors.NormalizeWebsite(tt.in)
			if tt.invalid {
				if !errors.Is(err, core.ErrInvalid) {
					t.Fatalf("NormalizeWebsite(%q) = %q, %q, %v; want ErrInvalid", tt.in, w, d, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("NormalizeWebsite(%q): %v", tt.in, err)
			}
			if w != tt.website || d != tt.domain {
				t.Fatalf("NormalizeWebsite(%q) = %q, %q; want %q, %q", tt.in, w, d, tt.website, tt.domain)
			}
		})
	}
}

func TestNormalizeWebsiteLengthLimit(t *testing.T) {
	t.Parallel()
	base := "https://example.com/"
	ok := base + strings.Repeat("a", 2000-len(base))
	if _, _, err := vendors.NormalizeWebsite(ok); err != nil {
		t.Fatalf("a 2000-character URL must be accepted: %v", err)
	}
	if _, _, err := vendors.NormalizeWebsite(ok + "a"); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a 2001-character URL: err = %v, want ErrInvalid", err)
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", -7200))
	v, err := vendors.New(id, " Slack Technologies, LLC ", "slack.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if v.ID != id || v.Name != "Slack Technologies" || v.WebsiteURL != "https://slack.com" || v.Domain != "slack.com" {
		t.Fatalf("New = %+v", v)
	}
	if v.Aliases == nil || len(v.Aliases) != 0 || !v.IsCustom() || v.CreatedAt.Location() != time.UTC || !v.CreatedAt.Equal(now) {
		t.Fatalf("New = %+v: want empty aliases, custom, UTC creation time", v)
	}
	v.HasProfile = true
	if v.IsCustom() {
		t.Fatal("a vendor with a profile is not custom")
	}
	if _, err := vendors.New(id, "", "slack.com", now); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("empty name: err = %v, want ErrInvalid", err)
	}
	if _, err := vendors.New(id, "Slack", "ftp://slack.com", now); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("bad website: err = %v, want ErrInvalid", err)
	}
}

func TestParseNameRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"Acme\x00", "Acme\u0085Corp", "Ac\u009bme", "\x1b[2JAcme"} {
		if n, err := vendors.ParseName(raw); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("ParseName(%q) = %q, %v; want ErrInvalid", raw, n, err)
		}
	}
}

func TestNormalizeWebsiteRefusesMalformedHosts(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{".? #", "https://./", "x..example", "-x.example", "x-.example", "https://exa mple.com",
		"https://example.com/a b", "https://x_y.example", "https://example", "http://.example.com"} {
		if site, _, err := vendors.NormalizeWebsite(raw); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("NormalizeWebsite(%q) = %q, %v; want ErrInvalid", raw, site, err)
		}
	}
	for raw, want := range map[string]string{"Bücher.example": "https://b%C3%BCcher.example", "example.com.": "https://example.com.", "10.1.2.3": "https://10.1.2.3"} {
		if site, _, err := vendors.NormalizeWebsite(raw); err != nil || site != want {
			t.Errorf("NormalizeWebsite(%q) = %q, %v; want %q", raw, site, err, want)
		}
	}
}
