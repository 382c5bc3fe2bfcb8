// Package mailtmpl builds the e-mails Vetted sends: member added or role
// changed, subscriber confirmation, and incident alerts with RFC 8058
// one-click unsubscribe. Templates live here, in one place; the Mailer port
// only transports the finished message.
package mailtmpl

import (
	"bytes"
	htmltemplate "html/template"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"
)

// Mail is a finished message. Key is the delivery key: a mail with the same
// key is the same mail (adapters derive Message-ID from it).
type Mail struct {
	To      string
	Subject string
	Text    string
	HTML    string
	Headers map[string]string
	Key     string
}

// MemberData fills the member-change mail.
type MemberData struct {
	AccountName string
	Role        string
	OldRole     string
	Change      string // added or role_changed
	By          string
	AppURL      string
}

// ConfirmData fills the subscriber confirmation mail.
type ConfirmData struct {
	AccountName string
	ListName    string
	ConfirmURL  string
	Expires     time.Time
}

// AlertData fills an incident alert.
type AlertData struct {
	VendorName   string
	ListName     string
	AccountName  string
	Title        string
	Summary      string
	Severity     string
	Status       string
	URL          string
	PublishedAt  time.Time
	ImpactedData []string
	// Evidence is why the incident was matched to the vendor ("rule:
	// matched text, confidence 0.95"), empty for status-page, feed and
	// manual incidents; Sources are the links of the items merged into it.
	Evidence string
	Sources  []string
	// AffectedService is the affected product; ProductOnList, when the
	// incident has one, tells whether the list records that product.
	AffectedService string
	ProductOnList   *bool
	UnsubscribeURL  string
	UnsubscribeTo   string // mailto address for List-Unsubscribe, optional
}

// RatingAlertData fills a rating change alert: what changed that matters
// in a scan of the vendor (vendors.RatingChanges, as sentences).
type RatingAlertData struct {
	VendorName     string
	ListName       string
	AccountName    string
	Grade          string // "" when the scan could not rate
	PreviousGrade  string
	Changes        []string
	ScannedAt      time.Time
	UnsubscribeURL string
}

// ReminderData fills a review reminder.
type ReminderData struct {
	AccountName    string
	VendorName     string
	ListName       string
	DueDate        string // 2006-01-02
	Days           int    // until the due date; 0 on it, negative when overdue
	Status         string
	AppURL         string
	UnsubscribeURL string
}

// WebhookDisabledData fills the mail to an account's admins and owners
// when an endpoint is disabled after a day of failed deliveries.
type WebhookDisabledData struct {
	AccountName string
	URL         string
	LastError   string
	Attempts    int
	AppURL      string
}

// MentionData fills the mail to a member mentioned in a note of a vendor
// record.
type MentionData struct {
	AccountName string
	VendorName  string
	Author      string
	Text        string
	AppURL      string
}

// When says when the review is due, in words.
func (d ReminderData) When() string {
	switch {
	case d.Days > 1:
		return "is due in " + strconv.Itoa(d.Days) + " days, on " + d.DueDate
	case d.Days == 1:
		return "is due tomorrow, " + d.DueDate
	case d.Days == 0:
		return "is due today, " + d.DueDate
	case d.Days == -1:
		return "is overdue by 1 day (due " + d.DueDate + ")"
	}
	return "is overdue by " + strconv.Itoa(-d.Days) + " days (due " + d.DueDate + ")"
}

var textT = texttemplate.Must(texttemplate.New("").Funcs(texttemplate.FuncMap{"deref": deref}).Parse(`
{{define "member"}}{{if eq .Change "added"}}You were added to {{.AccountName}} on Vetted with the role "{{.Role}}"{{else}}Your role in {{.AccountName}} on Vetted changed from "{{.OldRole}}" to "{{.Role}}"{{end}}{{if .By}} by {{.By}}{{end}}.

Sign in at {{.AppURL}} to see the vendors your organization tracks.
{{end}}
{{define "confirm"}}Please confirm that you want incident alerts for the vendor list "{{.ListName}}" of {{.AccountName}}.

Confirm: {{.ConfirmURL}}

The link is valid until {{.Expires.Format "2006-01-02 15:04 MST"}}. If you did not expect this, ignore this mail and nothing will be sent to you.
{{end}}
{{define "alert"}}Security incident at {{.VendorName}} ({{.Severity}}, {{.Status}})

{{.Title}}
{{if .Summary}}
{{.Summary}}
{{end}}{{if .ImpactedData}}
Potentially impacted data: {{range $i, $d := .ImpactedData}}{{if $i}}, {{end}}{{$d}}{{end}}
{{end}}{{if .AffectedService}}
Affected product: {{.AffectedService}}{{if .ProductOnList}}{{if deref .ProductOnList}} (recorded on this list){{else}} (not recorded on this list){{end}}{{end}}
{{end}}{{if .Evidence}}
Why this vendor: {{.Evidence}}
{{end}}{{if .URL}}
Details: {{.URL}}
{{end}}{{if gt (len .Sources) 1}}
Sources:{{range .Sources}}
- {{.}}{{end}}
{{end}}
Published: {{.PublishedAt.Format "2006-01-02 15:04 MST"}}
You receive this because {{.VendorName}} is on the vendor list "{{.ListName}}" of {{.AccountName}}.

Unsubscribe: {{.UnsubscribeURL}}
{{end}}
{{define "rating"}}The security posture of {{.VendorName}} changed{{if .Grade}} (grade {{if .PreviousGrade}}{{.PreviousGrade}} -> {{end}}{{.Grade}}){{end}}
{{range .Changes}}
- {{.}}{{end}}

Scanned: {{.ScannedAt.Format "2006-01-02 15:04 MST"}}
You receive this because {{.VendorName}} is on the vendor list "{{.ListName}}" of {{.AccountName}}.

Unsubscribe: {{.UnsubscribeURL}}
{{end}}
{{define "reminder"}}The review of {{.VendorName}} on the vendor list "{{.ListName}}" of {{.AccountName}} {{.When}}.

Current status: {{.Status}}
Open Vetted: {{.AppURL}}

You receive this as the vendor's sponsor or an admin or owner of {{.AccountName}}.
Stop review reminders from {{.AccountName}}: {{.UnsubscribeURL}}
{{end}}
{{define "webhook_disabled"}}The webhook endpoint {{.URL}} of {{.AccountName}} was disabled: its deliveries failed for 24 hours ({{.Attempts}} attempts).
{{if .LastError}}
Last error: {{.LastError}}
{{end}}
It gets no new events until it is registered again. Open Vetted: {{.AppURL}}

You receive this as an admin or owner of {{.AccountName}}.
{{end}}
{{define "mention"}}{{.Author}} mentioned you in a note on {{.VendorName}} in {{.AccountName}}:

{{.Text}}

Open the vendor record: {{.AppURL}}

You receive this because you are a member of {{.AccountName}} and the note names your address.
{{end}}`))

var htmlT = htmltemplate.Must(htmltemplate.New("").Funcs(htmltemplate.FuncMap{"deref": deref}).Parse(`
{{define "member"}}<p>{{if eq .Change "added"}}You were added to <b>{{.AccountName}}</b> on Vetted with the role <b>{{.Role}}</b>{{else}}Your role in <b>{{.AccountName}}</b> on Vetted changed from <b>{{.OldRole}}</b> to <b>{{.Role}}</b>{{end}}{{if .By}} by {{.By}}{{end}}.</p>
<p><a href="{{.AppURL}}">Open Vetted</a></p>{{end}}
{{define "confirm"}}<p>Please confirm that you want incident alerts for the vendor list <b>{{.ListName}}</b> of <b>{{.AccountName}}</b>.</p>
<p><a href="{{.ConfirmURL}}">Confirm my subscription</a></p>
<p>The link is valid until {{.Expires.Format "2006-01-02 15:04 MST"}}. If you did not expect this, ignore this mail.</p>{{end}}
{{define "alert"}}<h2>Security incident at {{.VendorName}}</h2>
<p><b>{{.Title}}</b> ({{.Severity}}, {{.Status}})</p>
{{if .Summary}}<p>{{.Summary}}</p>{{end}}
{{if .ImpactedData}}<p>Potentially impacted data: {{range $i, $d := .ImpactedData}}{{if $i}}, {{end}}{{$d}}{{end}}</p>{{end}}
{{if .AffectedService}}<p>Affected product: {{.AffectedService}}{{if .ProductOnList}}{{if deref .ProductOnList}} (recorded on this list){{else}} (not recorded on this list){{end}}{{end}}</p>{{end}}
{{if .Evidence}}<p>Why this vendor: {{.Evidence}}</p>{{end}}
{{if .URL}}<p><a href="{{.URL}}">Details</a></p>{{end}}
{{if gt (len .Sources) 1}}<p>Sources:</p><ul>{{range .Sources}}<li><a href="{{.}}">{{.}}</a></li>{{end}}</ul>{{end}}
<p>Published {{.PublishedAt.Format "2006-01-02 15:04 MST"}}. You receive this because {{.VendorName}} is on the vendor list {{.ListName}} of {{.AccountName}}.</p>
<p><a href="{{.UnsubscribeURL}}">Unsubscribe</a></p>{{end}}
{{define "rating"}}<h2>The security posture of {{.VendorName}} changed</h2>
{{if .Grade}}<p>Grade {{if .PreviousGrade}}{{.PreviousGrade}} &rarr; {{end}}<b>{{.Grade}}</b></p>{{end}}
<ul>{{range .Changes}}<li>{{.}}</li>{{end}}</ul>
<p>Scanned {{.ScannedAt.Format "2006-01-02 15:04 MST"}}. You receive this because {{.VendorName}} is on the vendor list {{.ListName}} of {{.AccountName}}.</p>
<p><a href="{{.UnsubscribeURL}}">Unsubscribe</a></p>{{end}}
{{define "reminder"}}<p>The review of <b>{{.VendorName}}</b> on the vendor list <b>{{.ListName}}</b> of <b>{{.AccountName}}</b> {{.When}}.</p>
<p>Current status: {{.Status}}</p>
<p><a href="{{.AppURL}}">Open Vetted</a></p>
<p>You receive this as the vendor's sponsor or an admin or owner of {{.AccountName}}. <a href="{{.UnsubscribeURL}}">Stop review reminders from {{.AccountName}}</a></p>{{end}}
{{define "webhook_disabled"}}<p>The webhook endpoint <b>{{.URL}}</b> of <b>{{.AccountName}}</b> was disabled: its deliveries failed for 24 hours ({{.Attempts}} attempts).</p>
{{if .LastError}}<p>Last error: {{.LastError}}</p>{{end}}
<p>It gets no new events until it is registered again. <a href="{{.AppURL}}">Open Vetted</a></p>
<p>You receive this as an admin or owner of {{.AccountName}}.</p>{{end}}
{{define "mention"}}<p>{{.Author}} mentioned you in a note on <b>{{.VendorName}}</b> in <b>{{.AccountName}}</b>:</p>
<blockquote style="white-space: pre-wrap">{{.Text}}</blockquote>
<p><a href="{{.AppURL}}">Open the vendor record</a></p>
<p>You receive this because you are a member of {{.AccountName}} and the note names your address.</p>{{end}}`))

// deref is *b for the templates.
func deref(b *bool) bool { return b != nil && *b }

func render(name string, data any) (string, string) {
	var t, h bytes.Buffer
	if err := textT.ExecuteTemplate(&t, name, data); err != nil {
		panic(err) // templates are static and tested
	}
	if err := htmlT.ExecuteTemplate(&h, name, data); err != nil {
		panic(err)
	}
	return strings.TrimSpace(t.String()) + "\n", strings.TrimSpace(h.String())
}

// MemberMail builds the member-change mail.
func MemberMail(to, key string, d MemberData) Mail {
	text, html := render("member", d)
	subj := "You were added to " + d.AccountName + " on Vetted"
	if d.Change != "added" {
		subj = "Your role in " + d.AccountName + " on Vetted changed"
	}
	return Mail{To: to, Subject: subj, Text: text, HTML: html, Key: key, Headers: map[string]string{}}
}

// ConfirmMail builds the subscriber confirmation mail.
func ConfirmMail(to, key string, d ConfirmData) Mail {
	text, html := render("confirm", d)
	return Mail{To: to, Subject: "Confirm incident alerts for " + d.ListName, Text: text, HTML: html, Key: key, Headers: map[string]string{}}
}

// AlertMail builds an incident alert with RFC 8058 one-click unsubscribe headers.
func AlertMail(to, key string, d AlertData) Mail {
	text, html := render("alert", d)
	return Mail{To: to, Subject: oneLine("[Vetted] Incident at " + d.VendorName + ": " + d.Title), Text: text, HTML: html, Key: key,
		Headers: oneClick(d.UnsubscribeURL, d.UnsubscribeTo)}
}

// RatingAlertMail builds a rating change alert, with the one-click
// unsubscribe headers of incident alerts: it goes to the same
// subscribers, whose unsubscribe link stops both.
func RatingAlertMail(to, key string, d RatingAlertData) Mail {
	text, html := render("rating", d)
	return Mail{To: to, Subject: oneLine("[Vetted] Security posture of " + d.VendorName + " changed"), Text: text, HTML: html, Key: key,
		Headers: oneClick(d.UnsubscribeURL, "")}
}

// oneClick is the RFC 8058 one-click unsubscribe headers of a mail to a
// subscriber (mailto, optional, is a second way to unsubscribe).
func oneClick(unsubscribeURL, mailto string) map[string]string {
	unsub := "<" + unsubscribeURL + ">"
	if mailto != "" {
		unsub += ", <mailto:" + mailto + "?subject=unsubscribe>"
	}
	return map[string]string{"List-Unsubscribe": unsub, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
}

// ReminderMail builds a review reminder with RFC 8058 one-click
// unsubscribe headers, as incident alerts have.
func ReminderMail(to, key string, d ReminderData) Mail {
	text, html := render("reminder", d)
	subj := "[Vetted] Review of " + d.VendorName + " " + d.When()
	return Mail{To: to, Subject: oneLine(subj), Text: text, HTML: html, Key: key, Headers: oneClick(d.UnsubscribeURL, "")}
}

// WebhookDisabledMail builds the mail that an endpoint was disabled.
func WebhookDisabledMail(to, key string, d WebhookDisabledData) Mail {
	text, html := render("webhook_disabled", d)
	return Mail{To: to, Subject: oneLine("[Vetted] Webhook endpoint disabled: " + d.URL), Text: text, HTML: html, Key: key,
		Headers: map[string]string{}}
}

// MentionMail builds the mail to a member mentioned in a note.
func MentionMail(to, key string, d MentionData) Mail {
	text, html := render("mention", d)
	return Mail{To: to, Subject: oneLine("[Vetted] " + d.Author + " mentioned you in a note on " + d.VendorName), Text: text, HTML: html, Key: key,
		Headers: map[string]string{}}
}

// oneLine folds all whitespace, line breaks included, so text from incident
// feeds can never break a mail header.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
