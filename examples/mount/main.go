// Command mount shows another Go program serving Vetted's HTTP API from its
// own http.Server, next to routes of its own: app.Build wires the memory
// store (VETTED_STORE=memory: nothing is written to disk) with the rest of
// the embedded default (in-process jobs, evidence in a temporary directory
// removed on Close, a log mailbox); the program mounts the API's handler on
// its mux, runs the outbox relay, says which store it uses, and calls its
// own route, /healthz and /accounts with a dev token. Run it with
// `go run ./mount` in examples/.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/ports"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, w io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()

	// The same configuration `vetted serve` reads from the environment,
	// built in code. Unset settings are the embedded default, whose store
	// is SQLite in DataDir: this example keeps nothing.
	cfg := app.Config{HTTPAddr: ln.Addr().String(), PublicURL: base, Store: app.StoreMemory,
		AuthDevSecret: "mount-example-secret-0123456789", SigningKey: "mount-example-signing-key-0123",
		RateLimit: 20, WorkerConcurrency: 4, LogFormat: "text", LogLevel: slog.LevelWarn}
	fmt.Fprintf(w, "store: %s\n", cfg.DescribeStore())
	a, err := app.Build(ctx, cfg, app.Overrides{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	defer a.Close(context.Background())

	// Your own mux: the API at the root (its OpenAPI paths are absolute),
	// your routes beside it.
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "hello from the host program") })
	mux.Handle("/", a.Server.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	// The relay moves committed side effects to the in-process job runner.
	relayCtx, stopRelay := context.WithCancel(ctx)
	relayDone := make(chan error, 1)
	go func() { relayDone <- a.Relay.Run(relayCtx) }()

	err = call(ctx, w, a, base)
	stopRelay()
	<-relayDone
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serr := srv.Shutdown(sctx); serr != nil {
		err = errors.Join(err, serr)
	}
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

func call(ctx context.Context, w io.Writer, a *app.App, base string) error {
	tok, err := a.Dev.Mint(auth.Claims{Subject: "example-admin", Email: "admin@example.test", EmailVerified: true,
		Groups: []string{ports.PlatformAdminGroup}, TTL: time.Hour})
	if err != nil {
		return err
	}
	for _, path := range []string{"/hello", "/healthz", "/accounts"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %d %s", path, res.StatusCode, body)
		}
		fmt.Fprintf(w, "GET %s -> %d %s (request id %s)\n", path, res.StatusCode, trim(body), res.Header.Get("X-Request-Id"))
	}
	return nil
}

func trim(b []byte) string {
	s := string(b)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	return s
}
