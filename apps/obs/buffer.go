package obs

import (
	"io"
	"sync"
	"time"
)

// LineBuffer is the process log's writer: records are gathered in memory
// and written in one call at most every FlushEvery, or sooner when
// FlushBytes have gathered. A write system call per record cost the API a
// third of its throughput on its hottest read (each access-log line was one,
// behind the handler's lock); gathered, a busy second of logs is ten writes.
// Records at level Warn and above should still be seen at once: the logger
// built by NewLogger flushes after each of them. Close flushes what is left
// and stops the timer; what a crash of the process leaves unflushed (at most
// FlushEvery of records) is lost.
type LineBuffer struct {
	w     io.Writer
	every time.Duration
	limit int

	mu      sync.Mutex
	buf     []byte
	spare   []byte // the buffer last written, reused for the next records
	err     error  // the last write error, returned by the next Write
	timer   *time.Timer
	closed  bool
	flushMu sync.Mutex // orders the writes to w
}

// Defaults of NewLineBuffer.
const (
	FlushEvery = 100 * time.Millisecond
	FlushBytes = 64 << 10
)

// NewLineBuffer gathers the records written to it and writes them to w.
func NewLineBuffer(w io.Writer) *LineBuffer {
	return &LineBuffer{w: w, every: FlushEvery, limit: FlushBytes}
}

// Write gathers p (one record: slog writes each in one call).
func (b *LineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return b.w.Write(p)
	}
	err := b.err
	b.err = nil
	b.buf = append(b.buf, p...)
	full := len(b.buf) >= b.limit
	if !full && b.timer == nil {
		b.timer = time.AfterFunc(b.every, func() { _ = b.Flush() })
	}
	b.mu.Unlock()
	if full {
		if ferr := b.Flush(); ferr != nil && err == nil {
			err = ferr
		}
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what has gathered.
func (b *LineBuffer) Flush() error {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	out := b.buf
	b.buf, b.spare = b.spare[:0], nil
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.mu.Unlock()
	if len(out) == 0 {
		return nil
	}
	_, err := b.w.Write(out)
	b.mu.Lock()
	if err != nil {
		b.err = err
	}
	if cap(out) <= 2*b.limit { // a record far larger than the rest is not kept
		b.spare = out[:0]
	}
	b.mu.Unlock()
	return err
}

// Close flushes and makes later writes go straight through.
func (b *LineBuffer) Close() error {
	err := b.Flush()
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	return err
}
