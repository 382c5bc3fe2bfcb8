package api

import (
	"bytes"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/memo"
	"github.com/vetted-dev/vetted/ports"
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
// The generation is global, not per account: a write anywhere makes every
// remembered answer stale. That keeps the rule to one line and makes it
// impossible to miss a dependency (a profile's enrichment changes what every
// list holding the vendor shows); under steady writes the cache simply hits
// less.

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
	gen   atomic.Uint64
	clock ports.Clock
	memo  memo.Map[string, *answer]
}

type answer struct {
	gen        uint64
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
	return &answers{clock: clock, memo: memo.Map[string, *answer]{Max: maxAnswers}}
}

// forget makes every remembered answer stale.
func (a *answers) forget() { a.gen.Add(1) }

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
	gen := a.gen.Load()
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
	if rec.status != http.StatusOK || rec.unfit || a.gen.Load() != gen {
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
