package api

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The answers of the account reads that every page of a client asks again
// and again (a list of 500, the reviews of a list, the members, the
// dashboard) are remembered as the bytes that were sent, per caller and
// request, and sent again while nothing changed: the hot read then costs
// the token check and the access log, not two to five queries and the
// encoding of a large document.
//
// "Nothing changed" is a generation: every unit of work that commits in this
// process (dircache.Cache.OnCommit) and every notice of another process's
// commit (the change feed's subscriber calls ForgetVendors) moves it on, and
// an answer is sent again only in the generation it was made in. So a
// client reads its own writes at once, on this replica and, as soon as the
// notice arrives, on every other. An answer is also made again once it is
// answerMaxAge old by the service's clock (see there): what a read shows
// that moves with time alone (a review turning due soon or overdue) shows
// late by about that, and a notice lost while the feed reconnects costs
// about that too.
//
// Generations are per account where the notices allow it. A write request
// that names its account (account-id) runs in that account's scope
// (stores.WithAccountScope), and the notice of its commit names the account
// unless it wrote something other accounts show too (a user, an incident,
// an existing directory entry or profile: see dircache). A notice that
// names accounts moves their generations; any other moves the global one.
// An answer to a request that names its account (account-id=<uuid>) holds
// while neither its account's generation nor the global one moved; an
// answer to any other request (the caller's accounts, a personal space)
// holds while no notice at all came. One account's steady writes then
// leave the others' answers alone, and a dependency the scope cannot see
// (a profile's enrichment changes what every list holding the vendor
// shows) is a global change.

// answerMaxAge is the age by the service's clock past which a remembered
// answer is made again. The first read past it makes it; reads that come
// while that one runs are sent the answer it replaces (nothing was written
// meanwhile, only time passed), so that a popular answer is made by one
// read at a time rather than by every client at once each second. An
// answer is kept for answerStaleFor at most, for those reads.
const (
	answerMaxAge   = time.Second
	answerStaleFor = 10 * time.Second
)

// maxAnswers bounds the answers remembered; maxAnswerBytes skips an answer
// too large to be worth holding (a whole list of several thousand vendors).
const (
	maxAnswers     = 2048
	maxAnswerBytes = 1 << 20
)

// answerOps are the operations whose answers are remembered: reads of
// account data, authenticated, whose answer depends only on the caller, the
// request and the store. Reads that sign URLs, stream exports, create links
// or are public are not among them, nor list-documents, whose answer also
// follows the blob store (an upload lands there, not in a unit of work).
var answerOps = map[string]bool{
	"list-users": true, "list-accounts": true, "get-vendor-lists": true, "list-assessments": true,
	"get-assessment-audit-log": true, "get-dashboard-metrics": true,
	"get-recent-incidents": true, "get-vendors-from-list": true, "get-review-policy": true, "list-subscribers": true,
}

// answers remembers encoded answers (see above).
type answers struct {
	any      atomic.Uint64 // moved by every notice
	global   atomic.Uint64 // moved by a notice that names no account
	accounts sync.Map      // uuid.UUID -> *atomic.Uint64, moved by a notice naming the account
	clock    ports.Clock
	memo     ttlcache.Map[string, *answer]
}

// stamp is the generation an answer was made in: of its account and the
// global one when the request names its account, else of every notice.
type stamp struct {
	account        uuid.UUID
	gen, globalGen uint64
}

type answer struct {
	gen        stamp
	at         time.Time
	status     int
	headers    []header
	body       []byte
	refreshing atomic.Bool // a read past answerMaxAge is making it again
}

type header struct{ name, value string }

// humaContext is huma.Context under a name that, embedded, does not hide
// its Context method.
type humaContext = huma.Context

func newAnswers(clock ports.Clock) *answers {
	if clock == nil {
		clock = ports.SystemClock{}
	}
	return &answers{clock: clock, memo: ttlcache.Map[string, *answer]{Max: maxAnswers}}
}

// forget makes the remembered answers c may have changed stale.
func (a *answers) forget(c stores.Changed) {
	a.any.Add(1)
	if !c.Data || len(c.Accounts) == 0 {
		a.global.Add(1)
		return
	}
	for _, id := range c.Accounts {
		g, _ := a.accounts.LoadOrStore(id, new(atomic.Uint64))
		g.(*atomic.Uint64).Add(1)
	}
}

// stamp returns the generation a request's answer is made in now.
func (a *answers) stamp(account uuid.UUID) stamp {
	if account == uuid.Nil {
		return stamp{gen: a.any.Load()}
	}
	st := stamp{account: account, globalGen: a.global.Load()}
	if g, ok := a.accounts.Load(account); ok {
		st.gen = g.(*atomic.Uint64).Load()
	}
	return st
}

// scope is the account a request names (account-id, as a UUID), or Nil.
func scope(ctx huma.Context) uuid.UUID {
	id, err := uuid.Parse(ctx.Query("account-id"))
	if err != nil {
		return uuid.Nil
	}
	return id
}

// scopeWrites runs a request that names its account in that account's
// scope, so that the notices of its units of work name the account (see
// above). A platform admin's operation is never scoped: it may act on any
// account whatever the request names.
func scopeWrites(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	if op == nil || ctx.Method() == http.MethodGet {
		next(ctx)
		return
	}
	if only, _ := op.Metadata[platformAdminKey].(bool); only {
		next(ctx)
		return
	}
	if id := scope(ctx); id != uuid.Nil {
		ctx = huma.WithContext(ctx, stores.WithAccountScope(ctx.Context(), id))
	}
	next(ctx)
}

// middleware answers a remembered read, or remembers the answer it makes.
// It runs after authenticate, so the caller is known and was let in; the
// rate limit has counted the request.
func (a *answers) middleware(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	ri := reqInfoOf(ctx.Context())
	if op == nil || !answerOps[op.OperationID] || ctx.Method() != http.MethodGet || ri == nil || ri.actor.UserID == uuid.Nil {
		next(ctx)
		return
	}
	u := ctx.URL()
	key := ri.actor.UserID.String() + "\x00" + op.OperationID + "\x00" + u.RawQuery + "\x00" + ctx.Header("Accept")
	now := a.clock.Now()
	account := scope(ctx)
	gen := a.stamp(account)
	got, ok := a.memo.Get(key, now)
	if ok && (got.gen != gen || now.Before(got.at)) {
		ok = false // written since, or a clock set back
	}
	if ok && (now.Sub(got.at) < answerMaxAge || !got.refreshing.CompareAndSwap(false, true)) {
		got.send(ctx) // fresh, or another read is making it again
		return
	}
	// This read makes the answer (again, when got is past its age).
	rec := &answerRecorder{humaContext: ctx}
	next(rec)
	if rec.status != http.StatusOK || rec.unfit || a.stamp(account) != gen {
		if ok {
			got.refreshing.Store(false) // the next read tries again
		}
		return // an error, too large, or written while the answer was made
	}
	a.memo.Put(key, &answer{gen: gen, at: now, status: rec.status, headers: rec.headers, body: bytes.Clone(rec.body.Bytes())},
		now.Add(answerStaleFor), now)
}

// send writes the remembered answer.
func (got *answer) send(ctx huma.Context) {
	for _, h := range got.headers {
		ctx.SetHeader(h.name, h.value)
	}
	ctx.SetStatus(got.status)
	_, _ = ctx.BodyWriter().Write(got.body)
}

// answerRecorder passes a handler's answer through and keeps a copy of it.
type answerRecorder struct {
	humaContext
	status  int
	headers []header
	body    bytes.Buffer
	unfit   bool // too large, or a header appended: not remembered
}

func (r *answerRecorder) SetStatus(code int) {
	r.status = code
	r.humaContext.SetStatus(code)
}

func (r *answerRecorder) SetHeader(name, value string) {
	r.headers = append(r.headers, header{name, value})
	r.humaContext.SetHeader(name, value)
}

func (r *answerRecorder) AppendHeader(name, value string) {
	// Replayed with SetHeader, an appended header would lose the values
	// before it: an answer that appends is not remembered.
	r.unfit = true
	r.humaContext.AppendHeader(name, value)
}

func (r *answerRecorder) BodyWriter() io.Writer { return answerTee{r} }

type answerTee struct{ r *answerRecorder }

func (t answerTee) Write(p []byte) (int, error) {
	if !t.r.unfit {
		if t.r.body.Len()+len(p) > maxAnswerBytes {
			t.r.unfit = true
			t.r.body.Reset()
		} else {
			t.r.body.Write(p)
		}
	}
	return t.r.humaContext.BodyWriter().Write(p)
}

// forgo tells the answer cache, when ctx is recording an answer and before
// any of it is written, that the answer is not to be remembered: it is then
// passed on without a copy. A whole list read in several reads of the store
// (streamList) says so, since each reader of a long list would otherwise
// hold up to maxAnswerBytes of it while it is written.
func forgo(ctx huma.Context) {
	if r, ok := ctx.(*answerRecorder); ok {
		r.unfit = true
	}
}
