package api

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/alerts"
)

// SubscriberJSON is an alert recipient of a list with its per-list state.
type SubscriberJSON struct {
	Email       string           `json:"email" format:"email"`
	Status      SubscriberStatus `json:"status"`
	IsMember    bool             `json:"is_member" doc:"The address belongs to a member of the account"`
	CreatedAt   time.Time        `json:"created_at"`
	ConfirmedAt *time.Time       `json:"confirmed_at" doc:"null while pending"`
}

func subscribersJSON(ss []alerts.Subscriber) []SubscriberJSON {
	out := make([]SubscriberJSON, 0, len(ss))
	for _, s := range ss {
		out = append(out, SubscriberJSON{Email: s.Email, Status: SubscriberStatus(s.Status), IsMember: s.IsMember, CreatedAt: s.CreatedAt, ConfirmedAt: s.ConfirmedAt})
	}
	return out
}

// EmailList is subscriber-email: one address as a string, or an array of
// addresses.
type EmailList []string

// UnmarshalJSON accepts a string or an array of strings.
func (e *EmailList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*e = EmailList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*e = many
	return nil
}

// Schema documents the string-or-array form.
func (EmailList) Schema(r huma.Registry) *huma.Schema {
	// Only the shape is declared: the service checks the addresses (at most
	// 500), so a bad one is reported at its own location.
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: "string", Description: "One e-mail address"},
		{Type: "array", Items: &huma.Schema{Type: "string"}, Description: "Several e-mail addresses (at most 500)"},
	}}
}

type subscribersListIn struct {
	AccountParam
	ListParams
}

type subscribersGetOut struct {
	Body struct {
		VendorListID string           `json:"vendor_list_id" format:"uuid"`
		Subscribers  []SubscriberJSON `json:"subscribers"`
	}
}

type subscribersPostIn struct {
	AccountParam
	ListParams
	Body struct {
		SubscriberEmail EmailList `json:"subscriber-email"`
	}
}

type subscribersPostOut struct {
	Body struct {
		Subscribers []SubscriberJSON `json:"subscribers"`
	}
}

type subscribersDeleteIn struct {
	AccountParam
	ListParams
	Emails []string `query:"subscriber-email" doc:"Addresses to remove (repeat or separate with commas), or give them in the body"`
	Body   *struct {
		SubscriberEmail EmailList `json:"subscriber-email,omitempty"`
	} `required:"false"`
}

type subscribersDeleteOut struct {
	Body struct {
		Removed []string `json:"removed"`
	}
}

// alertsHandler answers the Subscribers operations (who gets a list's
// incident alerts) with the alerts area of the core.
type alertsHandler struct{ *Server }

// listSubscribers answers list-subscribers.
func (h alertsHandler) listSubscribers(ctx context.Context, in *subscribersListIn) (*subscribersGetOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	l, ss, err := h.alerts.Subscribers(ctx, actor(ctx), acc, lr)
	if err != nil {
		return nil, err
	}
	out := &subscribersGetOut{}
	out.Body.VendorListID, out.Body.Subscribers = l.ID.String(), subscribersJSON(ss)
	return out, nil
}

// addSubscribers answers add-subscribers.
func (h alertsHandler) addSubscribers(ctx context.Context, in *subscribersPostIn) (*subscribersPostOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	ss, err := h.alerts.AddSubscribers(ctx, actor(ctx), acc, lr, in.Body.SubscriberEmail)
	if err != nil {
		return nil, err
	}
	out := &subscribersPostOut{}
	out.Body.Subscribers = subscribersJSON(ss)
	return out, nil
}

// removeSubscribers answers remove-subscribers.
func (h alertsHandler) removeSubscribers(ctx context.Context, in *subscribersDeleteIn) (*subscribersDeleteOut, error) {
	var emails []string
	for _, q := range in.Emails {
		emails = append(emails, strings.Split(q, ",")...)
	}
	if in.Body != nil {
		emails = append(emails, in.Body.SubscriberEmail...)
	}
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	removed, err := h.alerts.RemoveSubscribers(ctx, actor(ctx), acc, lr, emails)
	if err != nil {
		return nil, err
	}
	out := &subscribersDeleteOut{}
	out.Body.Removed = removed
	return out, nil
}
