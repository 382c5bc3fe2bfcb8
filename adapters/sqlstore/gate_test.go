package sqlstore

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Waiters go through in the order they came.
func TestGateIsFirstComeFirstServed(t *testing.T) {
	g := newGate(1)
	if err := g.Enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	const n = 20
	order := make(chan int, n)
	for i := range n {
		go func() {
			if err := g.Enter(context.Background()); err != nil {
				t.Error(err)
				return
			}
			order <- i
			g.Leave()
		}()
		// Each waiter is queued before the next one comes.
		deadline := time.Now().Add(5 * time.Second)
		for waiting(g) < i+1 {
			if time.Now().After(deadline) {
				t.Fatalf("waiter %d never queued", i)
			}
			time.Sleep(time.Millisecond)
		}
	}
	g.Leave()
	for want := range n {
		if got := <-order; got != want {
			t.Fatalf("waiter %d went through %dth", got, want)
		}
	}
}

// waiting counts the goroutines blocked in gate.Enter, from the runtime's
// dump of every goroutine: one blocked there is queued on the channel.
func waiting(gate) int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if (strings.Contains(g, "[select") || strings.Contains(g, "[chan send")) && strings.Contains(g, "sqlstore.gate.Enter") {
			n++
		}
	}
	return n
}

func TestGateEnterEndsWithTheContext(t *testing.T) {
	g := newGate(1)
	if err := g.Enter(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := g.Enter(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Enter on a full gate = %v, want the context's deadline", err)
	}
	g.Leave()
	if err := g.Enter(context.Background()); err != nil {
		t.Fatalf("a place given back is free again: %v", err)
	}
}
