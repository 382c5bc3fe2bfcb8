package incidents

import "testing"

func TestFoldText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Okta", "okta"},
		{"  Okta's  support-system ", "okta s support system"},
		{"AT&T", "at t"},
		{"Okta’s", "okta s"},
		{"ZOOM.us", "zoom us"},
		{"", ""},
		{"...", ""},
		{"Zero-Day in Ivanti Connect Secure!", "zero day in ivanti connect secure"},
		{"Société Générale", "société générale"},
	} {
		if got := FoldText(c.in); got != c.want {
			t.Errorf("FoldText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFoldName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Okta, Inc.", "okta"},
		{"OKTA INC", "okta"},
		{"Microsoft Corporation", "microsoft"},
		{"Progress Software Corp.", "progress software"},
		{"Atlassian Corporation Plc", "atlassian"},
		{"SAP SE", "sap"},
		{"Siemens AG", "siemens"},
		{"Acme Co., Ltd.", "acme"},
		{"Example GmbH", "example"},
		{"Ubisoft S.A.", "ubisoft"},
		{"Box, Inc.", "box"},
		{"Twilio Inc", "twilio"},
		{"Segment.io, Inc.", "segment io"},
		{"Group", "group"},
		{"Inc", "inc"},
		{"Zoom Video Communications, Inc.", "zoom video communications"},
		{"Cisco Systems, Inc.", "cisco systems"},
		{"Incorporated Widgets LLC", "incorporated widgets"},
	} {
		if got := FoldName(c.in); got != c.want {
			t.Errorf("FoldName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWordIndex(t *testing.T) {
	for _, c := range []struct {
		text, phrase string
		want         int
	}{
		{"dropbox was breached", "box", -1},
		{"boxing news", "box", -1},
		{"the box breach", "box", 4},
		{"box", "box", 0},
		{"dropbox and box", "box", 12},
		{"okta", "", -1},
	} {
		if got := wordIndex(c.text, c.phrase, 0); got != c.want {
			t.Errorf("wordIndex(%q, %q) = %d, want %d", c.text, c.phrase, got, c.want)
		}
	}
}
