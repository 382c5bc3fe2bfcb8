package testenv

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is a log sink that goroutines write while a test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Lines are the lines written so far that hold every one of parts.
func (b *Buffer) Lines(parts ...string) []string {
	var out []string
	for _, line := range strings.Split(b.String(), "\n") {
		if line == "" {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			out = append(out, line)
		}
	}
	return out
}
