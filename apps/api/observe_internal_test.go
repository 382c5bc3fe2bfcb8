package api

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// statusLog is a ResponseWriter that lists every status it is sent.
type statusLog struct {
	*httptest.ResponseRecorder
	codes []int
}

func (s *statusLog) WriteHeader(code int) { s.codes = append(s.codes, code) }

// TestRecorderKeepsTheFirstStatus: once a status is written a later one is
// dropped (huma sets 500 after a body write fails on a client gone), and an
// informational status passes through without fixing the final one.
func TestRecorderKeepsTheFirstStatus(t *testing.T) {
	w := &statusLog{ResponseRecorder: httptest.NewRecorder()}
	rec := &recorder{ResponseWriter: w}
	rec.WriteHeader(http.StatusEarlyHints)
	rec.WriteHeader(http.StatusOK)
	rec.WriteHeader(http.StatusInternalServerError)
	if want := []int{http.StatusEarlyHints, http.StatusOK}; rec.status != http.StatusOK || !slices.Equal(w.codes, want) {
		t.Fatalf("recorded %d, sent %v; want 200 recorded and %v sent", rec.status, w.codes, want)
	}
}
