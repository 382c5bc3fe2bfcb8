package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core"
)

var errMissing = errors.New("api: service and verifier are required")

// problem maps a core error to a huma status error (RFC 9457 problem+json).
// It is the one place where core errors meet HTTP statuses.
func problem(err error) error {
	if err == nil {
		return nil
	}
	var se huma.StatusError
	if errors.As(err, &se) {
		return err
	}
	msg := err.Error()
	var ve *core.ValidationError
	switch {
	case errors.As(err, &ve):
		details := make([]error, 0, len(ve.Fields))
		for _, f := range ve.Fields {
			details = append(details, &huma.ErrorDetail{Location: f.Field, Message: f.Message})
		}
		title := ve.Msg
		if title == "" {
			title = "validation failed"
		}
		return huma.NewError(http.StatusUnprocessableEntity, title+": "+ve.Error(), details...)
	case errors.Is(err, core.ErrInvalid):
		return huma.NewError(http.StatusUnprocessableEntity, trimSentinel(msg, core.ErrInvalid))
	case errors.Is(err, core.ErrNotFound):
		return huma.NewError(http.StatusNotFound, trimSentinel(msg, core.ErrNotFound))
	case errors.Is(err, core.ErrUnauthenticated):
		return huma.NewError(http.StatusUnauthorized, trimSentinel(msg, core.ErrUnauthenticated))
	case errors.Is(err, core.ErrForbidden):
		return huma.NewError(http.StatusForbidden, trimSentinel(msg, core.ErrForbidden))
	case errors.Is(err, core.ErrConflict):
		return huma.NewError(http.StatusConflict, trimSentinel(msg, core.ErrConflict))
	case errors.Is(err, core.ErrTooLarge):
		return huma.NewError(http.StatusRequestEntityTooLarge, trimSentinel(msg, core.ErrTooLarge))
	case errors.Is(err, core.ErrQuota):
		return huma.NewError(http.StatusTooManyRequests, trimSentinel(msg, core.ErrQuota))
	case errors.Is(err, core.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return huma.NewError(http.StatusServiceUnavailable, "a dependency is unavailable; try again")
	}
	slog.Error("internal error", "err", err)
	return huma.NewError(http.StatusInternalServerError, "internal error")
}

func trimSentinel(msg string, sentinel error) string {
	return strings.TrimSuffix(msg, ": "+sentinel.Error())
}
