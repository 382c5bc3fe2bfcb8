package api

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"net/http"
	"runtime"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/lists"
)

// streamList writes a list with all its vendors, a page of entries at a
// time as w reads them, so that an answer holds a page of the list in
// memory, whatever the list's length. The bytes are those huma wrote when
// the answer was a listsGetBody with List and Vendors (each value through
// the API's JSON format, the framing as encoding/json writes it; checked
// by TestWholeListStreamsTheSameBytes).
//
// A list of one page (read by OpenList) passes through the answer cache as
// before. A longer one is not remembered (forgo), and is read in turns:
// at most longListTurns of them are read at once, and the others wait
// before they read anything. The store's reads are served first come first
// served, a page at a time; without turns every reader of a long list
// would hold its order and its buffers while all of them advance a page at
// a time together, and 64 readers held about as much as the whole answers
// they replace (bench/read.sh, WHOLE). A reader that receives slowly
// holds its turn meanwhile: it delays other long-list reads, never the
// other reads of the service.
//
// A store that fails before the first page is in hand is answered with its
// problem, as before. Once the status is sent, a failure (of the store, or
// of a client gone) aborts the connection: the client sees a truncated
// answer, never a short list that looks whole, and the answer cache keeps
// nothing of it.
func (s *Server) streamList(hctx huma.Context, w *lists.WholeList) {
	ctx := hctx.Context()
	if !w.InOneRead() {
		forgo(hctx)
		select {
		case s.longLists <- struct{}{}:
			defer func() { <-s.longLists }()
		case <-ctx.Done():
			panic(http.ErrAbortHandler) // gone before its turn
		}
	}
	var (
		bw         *bufio.Writer
		ct         string
		scratch    bytes.Buffer
		clientGone bool
	)
	// value writes v as the format encodes it, less the newline the
	// encoder ends a document with.
	value := func(v any) error {
		scratch.Reset()
		if err := s.api.Marshal(&scratch, ct, v); err != nil {
			return err
		}
		_, err := bw.Write(bytes.TrimSuffix(scratch.Bytes(), newline))
		clientGone = err != nil
		return err
	}
	// begin starts the answer once the first page is in hand, so that a
	// store that fails before it is still answered with its problem.
	begin := func() (bool, error) {
		var ok bool
		if ct, ok = s.startJSON(hctx); !ok {
			return false, nil
		}
		bw = bufio.NewWriterSize(hctx.BodyWriter(), 32<<10)
		_, _ = bw.WriteString(`{"list":`)
		if err := value(listJSON(w.List())); err != nil {
			return true, err
		}
		_, err := bw.WriteString(`,"vendors":[`)
		return true, err
	}
	n := 0
	err := w.Each(ctx, func(page []lists.Entry) error {
		if bw == nil {
			if ok, err := begin(); !ok || err != nil {
				return cmp.Or(err, errNotAcceptable)
			}
		}
		for _, e := range page {
			if n > 0 {
				_ = bw.WriteByte(',')
			}
			n++
			if err := value(entryJSON(e)); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && bw == nil {
		var ok bool
		if ok, err = begin(); !ok {
			return
		}
	}
	if err == nil {
		_, _ = bw.WriteString("]}\n")
		err = bw.Flush()
		clientGone = err != nil
	}
	switch {
	case err == nil, errors.Is(err, errNotAcceptable):
	case bw == nil:
		s.writeProblem(hctx, err) // nothing written yet
	default:
		if !clientGone && ctx.Err() == nil {
			logger(ctx).ErrorContext(ctx, "GET /vendor-lists: the list could not be read to the end; answer aborted",
				"list_id", w.List().ID, "error", err)
		}
		panic(http.ErrAbortHandler)
	}
}

// errNotAcceptable stops a stream whose answer startJSON refused.
var errNotAcceptable = errors.New("no acceptable format")

// longListTurns is how many long lists are read at once: as many as the
// reads SQLite's pool serves at once (PostgreSQL's serves twice that).
func longListTurns() int { return 2 * runtime.GOMAXPROCS(0) }
