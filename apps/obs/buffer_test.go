package obs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/obs"
)

// countingWriter records each write it is given.
type countingWriter struct {
	mu     sync.Mutex
	writes int
	buf    bytes.Buffer
	err    error
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	w.writes++
	return w.buf.Write(p)
}

func (w *countingWriter) state() (int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes, w.buf.String()
}

// TestLineBufferGathersInfoAndFlushesWarnings: a thousand info records
// reach the writer in a few writes, complete and in order, after at most
// FlushEvery; a warning goes out at once, with what gathered before it.
func TestLineBufferGathersInfoAndFlushesWarnings(t *testing.T) {
	w := &countingWriter{}
	lb := obs.NewLineBuffer(w)
	log := obs.NewLogger(lb, "json", slog.LevelInfo)
	for i := range 1000 {
		log.Info("http request", "n", i)
	}
	if n, _ := w.state(); n > 1000*200/obs.FlushBytes+1 {
		t.Fatalf("%d writes for 1000 records (~200 bytes each): not gathered", n)
	}
	deadline := time.Now().Add(10 * obs.FlushEvery)
	for {
		_, out := w.state()
		if strings.Count(out, "\n") == 1000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v, %d of 1000 records were written", 10*obs.FlushEvery, strings.Count(out, "\n"))
		}
		time.Sleep(obs.FlushEvery / 4)
	}
	_, out := w.state()
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct{ N int }
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.N != i {
			t.Fatalf("line %d is %q (err %v): records torn or out of order", i, line, err)
		}
	}

	log.Info("quiet")
	log.Warn("dependency unavailable")
	_, out = w.state()
	if !strings.HasSuffix(out, "\n") || !strings.Contains(out, `"msg":"quiet"`) || !strings.Contains(out, `"msg":"dependency unavailable"`) {
		t.Fatalf("a warning was not written at once with what came before it: %q", out[max(0, len(out)-200):])
	}
}

// TestLineBufferClose: Close writes what gathered, and later records go
// straight through; a failed write is reported by a later Write.
func TestLineBufferClose(t *testing.T) {
	w := &countingWriter{}
	lb := obs.NewLineBuffer(w)
	_, _ = lb.Write([]byte("one\n"))
	if n, _ := w.state(); n != 0 {
		t.Fatalf("%d writes before any flush", n)
	}
	if err := lb.Close(); err != nil {
		t.Fatal(err)
	}
	_, _ = lb.Write([]byte("two\n"))
	if n, out := w.state(); n != 2 || out != "one\ntwo\n" {
		t.Fatalf("after Close: %d writes of %q", n, out)
	}

	bad := &countingWriter{err: errors.New("disk full")}
	lb = obs.NewLineBuffer(bad)
	_, _ = lb.Write([]byte("lost\n"))
	if err := lb.Flush(); err == nil {
		t.Fatal("Flush to a failing writer returned no error")
	}
	if _, err := lb.Write([]byte("next\n")); err == nil {
		t.Fatal("the write after a failed flush did not report it")
	}
}
