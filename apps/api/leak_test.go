package api_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// errUnexpected is a store failure no mapping knows (a table gone after a
// botched migration), wrapped as a repository would: neither its words nor
// the wrapper's may reach a client.
var errUnexpected = fmt.Errorf("members of the account: %w", errors.New(`pq: relation "accounts" does not exist`))

// leakedWords are the pieces of errUnexpected an answer must not carry.
var leakedWords = []string{"pq:", "relation", "does not exist", "members of the account"}

// TestUnexpectedStoreErrorsDoNotLeak calls every operation of the OpenAPI
// document and the mail-link routes (everyCall: a valid request by a caller
// who may make it) while every unit of work of the store fails with an
// error nothing maps. No answer carries the error's text; every 500 is a
// problem+json document with the fixed detail and is logged once, with the
// request id and the cause. The callers signed in before the store broke
// (the service remembers them), so the requests get past authentication and
// their handlers meet the failure.
func TestUnexpectedStoreErrorsDoNotLeak(t *testing.T) {
	t.Parallel()
	onceOnly(t)
	store := &downStore{Store: memstore.New(), err: errUnexpected}
	logs := &logBuffer{}
	w := newMatrixWorld(t, apitest.WithStore(func(testing.TB) stores.Store { return store }),
		apitest.WithLogger(obs.NewLogger(logs, "json", slog.LevelDebug)))
	calls := everyCall(t, w)
	for _, tok := range []string{w.a.owner, w.admin} {
		apitest.Must(t, w.env.Do(t, http.MethodGet, "/accounts", tok, nil), http.StatusOK)
	}

	store.down.Store(true)
	statuses := map[int]int{}
	for _, c := range calls {
		res := w.env.Do(t, c.method, c.path, c.token, c.body)
		statuses[res.Status]++
		call := fmt.Sprintf("%s (%s %s) = %d", c.name, c.method, c.path, res.Status)
		for _, word := range leakedWords {
			if strings.Contains(string(res.Body), word) {
				t.Errorf("%s: the answer carries the store's error (%q): %s", call, word, res.Body)
			}
		}
		switch {
		case res.Status < 500:
			continue
		case c.name == "readyz":
			// /readyz names the dependency that is down (its own 503), never why.
			if res.Status != http.StatusServiceUnavailable {
				t.Errorf("%s, want 503: %s", call, res.Body)
			}
			continue
		case res.Status != http.StatusInternalServerError:
			t.Errorf("%s, want 500 for an error nothing maps: %s", call, res.Body)
		}
		if c.name != "link" { // a mail link answers a browser with a page
			var p struct {
				Detail string            `json:"detail"`
				Errors []json.RawMessage `json:"errors"`
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("%s: Content-Type %q, want application/problem+json", call, ct)
			} else if err := json.Unmarshal(res.Body, &p); err != nil || p.Detail != "internal error" || len(p.Errors) != 0 {
				t.Errorf("%s: want the fixed problem (detail \"internal error\", no errors): %s", call, res.Body)
			}
		}
		id := res.Header.Get(api.RequestIDHeader)
		var logged []map[string]any
		for _, r := range logs.records(t, "") {
			if r["request_id"] == id && r["msg"] != "http request" { // the access log line aside
				logged = append(logged, r)
			}
		}
		if len(logged) != 1 || logged[0]["level"] != "ERROR" || !strings.Contains(fmt.Sprint(logged[0]["err"]), `pq: relation "accounts"`) {
			t.Errorf("%s: want the failure logged once, as an error with its cause and request id %s; logged %v", call, id, logged)
		}
	}
	t.Logf("%d calls with the store failing; answers by status: %v", len(calls), statuses)
}
