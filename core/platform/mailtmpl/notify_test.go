package mailtmpl_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
)

// contains fails for every want missing from got.
func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, got)
		}
	}
}

func TestMemberMail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		data       mailtmpl.MemberData
		subject    string
		text, html []string
		notInText  []string
	}{
		{
			name:      "added",
			data:      mailtmpl.MemberData{AccountName: "Acme", Role: "admin", Change: "added", By: "owner@acme.test", AppURL: "https://app.vetted.test"},
			subject:   "You were added to Acme on Vetted",
			text:      []string{`You were added to Acme on Vetted with the role "admin" by owner@acme.test.`, "https://app.vetted.test"},
			html:      []string{"<b>Acme</b>", "<b>admin</b>", `href="https://app.vetted.test"`},
			notInText: []string{"changed"},
		},
		{
			name:      "role changed",
			data:      mailtmpl.MemberData{AccountName: "Acme", Role: "viewer", OldRole: "member", Change: "role_changed", AppURL: "https://app.vetted.test"},
			subject:   "Your role in Acme on Vetted changed",
			text:      []string{`Your role in Acme on Vetted changed from "member" to "viewer".`},
			html:      []string{"from <b>member</b> to <b>viewer</b>"},
			notInText: []string{"added", " by "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := mailtmpl.MemberMail("bob@acme.test", "key-1", tt.data)
			if m.To != "bob@acme.test" || m.Key != "key-1" || m.Subject != tt.subject || m.Headers == nil {
				t.Fatalf("mail = %+v, want subject %q", m, tt.subject)
			}
			contains(t, "text", m.Text, tt.text...)
			contains(t, "html", m.HTML, tt.html...)
			for _, n := range tt.notInText {
				if strings.Contains(m.Text, n) {
					t.Errorf("text contains %q:\n%s", n, m.Text)
				}
			}
			if !strings.HasSuffix(m.Text, "\n") || strings.HasSuffix(m.Text, "\n\n") || strings.HasPrefix(m.Text, "\n") {
				t.Errorf("text must be trimmed and end in one newline: %q", m.Text)
			}
		})
	}
}

func TestConfirmMail(t *testing.T) {
	t.Parallel()
	url := "https://app.vetted.test/subscribers/confirm?token=abc.def&x=1"
	m := mailtmpl.ConfirmMail("s@example.com", "key-2", mailtmpl.ConfirmData{
		AccountName: "Acme", ListName: "master-list", ConfirmURL: url,
		Expires: time.Date(2026, 7, 1, 9, 30, 0, 0, time.UTC),
	})
	if m.Subject != "Confirm incident alerts for master-list" || m.Key != "key-2" || m.To != "s@example.com" {
		t.Fatalf("mail = %+v", m)
	}
	contains(t, "text", m.Text, "Confirm: "+url, "2026-07-01 09:30 UTC", `"master-list" of Acme`)
	contains(t, "html", m.HTML, `href="https://app.vetted.test/subscribers/confirm?token=abc.def&amp;x=1"`)
}

func TestAlertMail(t *testing.T) {
	t.Parallel()
	base := mailtmpl.AlertData{
		VendorName: "Slack", ListName: "master-list", AccountName: "Acme",
		Title: "Token leak", Summary: "Tokens were exposed.", Severity: "high", Status: "open",
		URL: "https://slack.com/blog/incident", PublishedAt: time.Date(2026, 8, 2, 14, 5, 0, 0, time.UTC),
		ImpactedData:   []string{"email", "tokens"},
		UnsubscribeURL: "https://app.vetted.test/unsubscribe?token=t1",
	}
	tests := []struct {
		name  string
		edit  func(*mailtmpl.AlertData)
		unsub string
	}{
		{"https only", func(*mailtmpl.AlertData) {}, "<https://app.vetted.test/unsubscribe?token=t1>"},
		{"with mailto", func(d *mailtmpl.AlertData) { d.UnsubscribeTo = "unsub@vetted.test" },
			"<https://app.vetted.test/unsubscribe?token=t1>, <mailto:unsub@vetted.test?subject=unsubscribe>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := base
			tt.edit(&d)
			m := mailtmpl.AlertMail("s@example.com", "alert:1:2", d)
			if m.Key != "alert:1:2" || m.To != "s@example.com" || m.Subject != "[Vetted] Incident at Slack: Token leak" {
				t.Fatalf("mail = %+v", m)
			}
			if got := m.Headers["List-Unsubscribe"]; got != tt.unsub {
				t.Fatalf("List-Unsubscribe = %q, want %q", got, tt.unsub)
			}
			if got := m.Headers["List-Unsubscribe-Post"]; got != "List-Unsubscribe=One-Click" {
				t.Fatalf("List-Unsubscribe-Post = %q", got)
			}
			contains(t, "text", m.Text, "Security incident at Slack (high, open)", "Token leak", "Tokens were exposed.",
				"Potentially impacted data: email, tokens", "Details: https://slack.com/blog/incident",
				"Published: 2026-08-02 14:05 UTC", "Unsubscribe: https://app.vetted.test/unsubscribe?token=t1")
			contains(t, "html", m.HTML, `href="https://app.vetted.test/unsubscribe?token=t1"`, "email, tokens")
		})
	}
}

func TestAlertMailOmitsEmptyParts(t *testing.T) {
	t.Parallel()
	m := mailtmpl.AlertMail("s@example.com", "k", mailtmpl.AlertData{VendorName: "Slack", Title: "T", UnsubscribeURL: "https://u.test/x"})
	for _, n := range []string{"Potentially impacted data", "Details:"} {
		if strings.Contains(m.Text, n) || strings.Contains(m.HTML, strings.TrimSuffix(n, ":")) {
			t.Errorf("mail without that part mentions %q:\n%s\n%s", n, m.Text, m.HTML)
		}
	}
}

func TestHTMLIsEscaped(t *testing.T) {
	t.Parallel()
	evil := `<script>alert("x")</script>`
	m := mailtmpl.AlertMail("s@example.com", "k", mailtmpl.AlertData{
		VendorName: "Evil <b>Corp</b>", Title: evil, Summary: evil, ListName: evil, AccountName: evil,
		ImpactedData: []string{evil}, URL: "javascript:alert(1)", UnsubscribeURL: "https://u.test/x",
	})
	if strings.Contains(m.HTML, "<script>") || strings.Contains(m.HTML, "<b>Corp</b>") || strings.Contains(m.HTML, `href="javascript:`) {
		t.Fatalf("html not escaped:\n%s", m.HTML)
	}
	contains(t, "html", m.HTML, "&lt;script&gt;")
	// The plain-text part is not HTML: it carries the title as written.
	contains(t, "text", m.Text, evil)

	mm := mailtmpl.MemberMail("a@b.c", "k", mailtmpl.MemberData{AccountName: evil, Role: "admin", Change: "added", AppURL: "https://x.test"})
	if strings.Contains(mm.HTML, "<script>") {
		t.Fatalf("member html not escaped:\n%s", mm.HTML)
	}
}

func TestAlertSubjectIsOneLine(t *testing.T) {
	m := mailtmpl.AlertMail("a@b.test", "k", mailtmpl.AlertData{VendorName: "Okta", Title: "Breach\r\nBcc: victim@example.test", UnsubscribeURL: "https://x.test/u"})
	if strings.ContainsAny(m.Subject, "\r\n") {
		t.Fatalf("subject has a line break: %q", m.Subject)
	}
}

func TestReminderMail(t *testing.T) {
	t.Parallel()
	base := mailtmpl.ReminderData{AccountName: "Acme", VendorName: "Beta\r\nBcc: x@y", ListName: "Main", DueDate: "2026-07-15",
		Status: "approved", AppURL: "https://app.vetted.test/app/", UnsubscribeURL: "https://app.vetted.test/reminders/unsubscribe?token=t"}
	tests := []struct {
		days int
		when string
	}{
		{30, "is due in 30 days, on 2026-07-15"},
		{1, "is due tomorrow, 2026-07-15"},
		{0, "is due today, 2026-07-15"},
		{-1, "is overdue by 1 day (due 2026-07-15)"},
		{-14, "is overdue by 14 days (due 2026-07-15)"},
	}
	for _, tc := range tests {
		d := base
		d.Days = tc.days
		m := mailtmpl.ReminderMail("ann@acme.test", "reminder:k", d)
		if m.To != "ann@acme.test" || m.Key != "reminder:k" || strings.ContainsAny(m.Subject, "\r\n") {
			t.Fatalf("mail %+v", m)
		}
		contains(t, "subject", m.Subject, "[Vetted] Review of Beta Bcc: x@y "+tc.when)
		contains(t, "text", m.Text, tc.when, "approved", "https://app.vetted.test/app/", base.UnsubscribeURL)
		contains(t, "html", m.HTML, tc.when, "<b>Main</b>", `href="https://app.vetted.test/reminders/unsubscribe?token=t"`)
		if m.Headers["List-Unsubscribe"] != "<"+base.UnsubscribeURL+">" || m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
			t.Fatalf("headers %v", m.Headers)
		}
	}
}

func TestMentionMail(t *testing.T) {
	m := mailtmpl.MentionMail("erin@acme.example", "mention:n1:erin@acme.example", mailtmpl.MentionData{AccountName: "Acme", VendorName: "Okta\nInc",
		Author: "ann@acme.example", Text: "Ask @erin@acme.example <b>now</b>\nsecond line", AppURL: "https://vetted.example/app/a/1/vendors/2"})
	if m.To != "erin@acme.example" || m.Key != "mention:n1:erin@acme.example" {
		t.Fatalf("to %q key %q", m.To, m.Key)
	}
	if m.Subject != "[Vetted] ann@acme.example mentioned you in a note on Okta Inc" {
		t.Fatalf("subject %q", m.Subject)
	}
	contains(t, "text", m.Text, "ann@acme.example mentioned you in a note on Okta\nInc in Acme", "<b>now</b>\nsecond line",
		"https://vetted.example/app/a/1/vendors/2")
	contains(t, "html", m.HTML, "&lt;b&gt;now&lt;/b&gt;", `href="https://vetted.example/app/a/1/vendors/2"`)
	if strings.Contains(m.HTML, "<b>now</b>") {
		t.Fatalf("note text not escaped: %s", m.HTML)
	}
}
