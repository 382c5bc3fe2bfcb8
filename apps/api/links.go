package api

import (
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
)

// The mail link routes need no bearer token: the HMAC-signed, expiring
// token in the query is the credential. GET never changes anything, because
// mail scanners and link previewers follow links; it shows a page whose
// button POSTs back to the same URL. POST acts, as RFC 8058 one-click
// unsubscribe requires.

const (
	confirmPath     = "/subscribers/confirm"
	unsubscribePath = "/unsubscribe"
	// maxLinkBody bounds what a link POST may send (RFC 8058 sends one
	// short form field).
	maxLinkBody = 16 << 10
)

// linkPage is what the link pages show; every value is escaped by
// html/template, including the token in the form's action URL.
type linkPage struct {
	Title   string
	Message string
	// Action, when set, is the path the button POSTs to with Token.
	Action string
	Token  string
	Button string
	// OneClick adds the RFC 8058 body field to the form.
	OneClick bool
}

var linkTemplate = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>{{.Title}} · Vetted</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
{{- if .Action}}
<form method="post" action="{{.Action}}?token={{.Token}}">
{{- if .OneClick}}
<input type="hidden" name="List-Unsubscribe" value="One-Click">
{{- end}}
<button type="submit">{{.Button}}</button>
</form>
{{- end}}
</body>
</html>
`))

func (s *Server) registerLinks(r chi.Router) {
	r.Get(confirmPath, s.confirmPage)
	r.Post(confirmPath, s.confirm)
	r.Get(unsubscribePath, s.unsubscribePage)
	r.Post(unsubscribePath, s.unsubscribe)
	r.Get(assessments.ReminderUnsubscribePath, s.reminderUnsubscribePage)
	r.Post(assessments.ReminderUnsubscribePath, s.reminderUnsubscribe)
}

// linkToken reads the token from the query, or for a POST from the form
// body; the body is read at most maxLinkBody bytes and otherwise ignored.
func linkToken(w http.ResponseWriter, r *http.Request) string {
	if t := r.URL.Query().Get("token"); t != "" {
		return t
	}
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxLinkBody)
		if err := r.ParseForm(); err == nil {
			return r.PostForm.Get("token")
		}
	}
	return ""
}

// drainBody reads what is left of a POST body so the connection can be
// reused; any body is accepted.
func drainBody(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, maxLinkBody))
}

func (s *Server) confirmPage(w http.ResponseWriter, r *http.Request) {
	tok := linkToken(w, r)
	t, err := s.alerts.PeekLink(r.Context(), alerts.PurposeConfirm, tok)
	if err != nil {
		s.linkError(w, r, err)
		return
	}
	if t.Subscriber.Status == alerts.SubscriberConfirmed {
		s.linkOK(w, r, "confirmed", t, linkPage{Title: "Subscription confirmed",
			Message: t.Subscriber.Email + " already receives incident alerts for the list " + t.ListName + "."})
		return
	}
	s.linkOK(w, r, "pending", t, linkPage{Title: "Confirm incident alerts",
		Message: "Confirm that " + t.Subscriber.Email + " should receive incident alerts for the list " + t.ListName + ".",
		Action:  confirmPath, Token: tok, Button: "Confirm subscription"})
}

func (s *Server) confirm(w http.ResponseWriter, r *http.Request) {
	tok := linkToken(w, r)
	drainBody(w, r)
	t, err := s.alerts.ConfirmSubscriber(r.Context(), tok)
	if err != nil {
		s.linkError(w, r, err)
		return
	}
	s.linkOK(w, r, "confirmed", t, linkPage{Title: "Subscription confirmed",
		Message: t.Subscriber.Email + " will receive incident alerts for the list " + t.ListName + "."})
}

func (s *Server) unsubscribePage(w http.ResponseWriter, r *http.Request) {
	tok := linkToken(w, r)
	t, err := s.alerts.PeekLink(r.Context(), alerts.PurposeUnsubscribe, tok)
	if errors.Is(err, core.ErrNotFound) {
		s.linkOK(w, r, "unsubscribed", t, linkPage{Title: "Unsubscribed", Message: "This address no longer receives these incident alerts."})
		return
	}
	if err != nil {
		s.linkError(w, r, err)
		return
	}
	s.linkOK(w, r, "confirmed", t, linkPage{Title: "Unsubscribe from incident alerts",
		Message: "Stop sending incident alerts for the list " + t.ListName + " to " + t.Subscriber.Email + "?",
		Action:  unsubscribePath, Token: tok, Button: "Unsubscribe", OneClick: true})
}

func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) {
	tok := linkToken(w, r)
	drainBody(w, r)
	t, err := s.alerts.Unsubscribe(r.Context(), tok)
	if err != nil {
		s.linkError(w, r, err)
		return
	}
	msg := "This address no longer receives these incident alerts."
	if t.Subscriber.Email != "" {
		msg = t.Subscriber.Email + " no longer receives incident alerts for the list " + t.ListName + "."
	}
	s.linkOK(w, r, "unsubscribed", t, linkPage{Title: "Unsubscribed", Message: msg})
}

func (s *Server) reminderUnsubscribePage(w http.ResponseWriter, r *http.Request) {
	tok := linkToken(w, r)
	o, err := s.assessments.PeekReminderUnsubscribe(r.Context(), tok)
	if err != nil {
		s.linkError(w, r, err)
		return
	}
	if o.Done {
		s.reminderLinkOK(w, r, o, linkPage{Title: "Unsubscribed", Message: o.Email + " no longer receives review reminders from " + o.AccountName + "."})
		return
	}
	s.reminderLinkOK(w, r, o, linkPage{Title: "Stop review reminders",
		Message: "Stop sending review reminders from " + o.AccountName + " to " + o.Email + "?",
		Action:  assessments.ReminderUnsubscribePath, Token: tok, Button: "Unsubscribe", OneClick: true})
}

func (s *Server) reminderUnsubscribe(w http.ResponseWriter, r *http.Request) {
	tok := linkToken(w, r)
	drainBody(w, r)
	o, err := s.assessments.UnsubscribeReminders(r.Context(), tok)
	if err != nil {
		s.linkError(w, r, err)
		return
	}
	s.reminderLinkOK(w, r, o, linkPage{Title: "Unsubscribed", Message: o.Email + " no longer receives review reminders from " + o.AccountName + "."})
}

// ReminderLinkJSON is what a reminder unsubscribe link answers a JSON client.
type ReminderLinkJSON struct {
	Status  string `json:"status"` // subscribed or unsubscribed
	Email   string `json:"email"`
	Account string `json:"account"`
}

func (s *Server) reminderLinkOK(w http.ResponseWriter, r *http.Request, o assessments.ReminderOptOut, p linkPage) {
	pageHeaders(w)
	if wantsJSON(r) {
		status := "subscribed"
		if o.Done {
			status = "unsubscribed"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(ReminderLinkJSON{Status: status, Email: o.Email, Account: o.AccountName})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = linkTemplate.Execute(w, p)
}

// wantsJSON reports whether the client asked for JSON rather than a page.
func wantsJSON(r *http.Request) bool {
	a := strings.ToLower(r.Header.Get("Accept"))
	return strings.Contains(a, "application/json") || strings.Contains(a, "application/problem+json")
}

func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer") // the URL carries the token
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
}

// LinkResultJSON is what a link answers a JSON client.
type LinkResultJSON struct {
	Status     string `json:"status"`
	Email      string `json:"email"`
	VendorList string `json:"vendor_list"`
}

func (s *Server) linkOK(w http.ResponseWriter, r *http.Request, status string, t alerts.LinkTarget, p linkPage) {
	pageHeaders(w)
	if wantsJSON(r) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(LinkResultJSON{Status: status, Email: t.Subscriber.Email, VendorList: t.ListName})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = linkTemplate.Execute(w, p)
}

// linkError answers a refused link: problem+json for JSON clients, a page
// otherwise, with the status the API gives the core error (403 for a bad,
// expired or tampered token).
func (s *Server) linkError(w http.ResponseWriter, r *http.Request, err error) {
	p, h := buildProblem(r.Context(), err)
	pageHeaders(w)
	for k, vs := range h {
		w.Header()[k] = vs
	}
	if wantsJSON(r) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(p.Status)
		_ = json.NewEncoder(w).Encode(p)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(p.Status)
	_ = linkTemplate.Execute(w, linkPage{Title: "This link cannot be used", Message: p.Detail + ". Ask for a new link if you still need one."})
}
