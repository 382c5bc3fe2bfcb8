// Command vetted is the one binary of Vetted:
//
//	vetted serve     run the HTTP API and the outbox relay (SQLite in VETTED_DATA_DIR when no VETTED_DATABASE_URL)
//	vetted worker    run the asynq worker, scheduler and relay (needs VETTED_REDIS_URL)
//	vetted migrate   apply PostgreSQL migrations (VETTED_DATABASE_URL)
//	vetted token     mint a dev token: vetted token --email a@b.c [--admin] [--ttl 24h]
//	vetted openapi   write the OpenAPI document (YAML) to stdout without listening
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/ports"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "vetted:", err)
		os.Exit(1)
	}
}

const usage = `usage: vetted <command> [flags]

commands:
  serve     run the HTTP API and the outbox relay
  worker    run the job worker on Redis (VETTED_REDIS_URL)
  migrate   apply PostgreSQL migrations (VETTED_DATABASE_URL)
  token     mint a dev token (--email, --admin, --name, --ttl)
  openapi   print the OpenAPI document (YAML)`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	switch args[0] {
	case "serve":
		return serve(ctx, log, stdout)
	case "worker":
		return worker(ctx, log)
	case "migrate":
		return migrate(ctx, log)
	case "token":
		return token(args[1:], stdout)
	case "openapi":
		return openapi(stdout)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

func serve(ctx context.Context, log *slog.Logger, stdout io.Writer) error {
	cfg, err := app.FromEnv()
	if err != nil {
		return err
	}
	a, err := app.Build(ctx, cfg, app.Overrides{Logger: log})
	if err != nil {
		return err
	}
	defer a.Close(context.Background())
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return err
	}
	store := "PostgreSQL"
	switch cfg.Store {
	case app.StoreSQLite:
		store = "SQLite at " + filepath.Join(cfg.DataDir, app.DatabaseFile)
	case app.StoreMemory:
		store = "memory (data is lost on exit)"
	}
	log.Info("vetted listening", "addr", ln.Addr().String(), "store", store, "docs", cfg.PublicURL+"/docs")
	if a.Dev != nil {
		const admin = "admin@vetted.local"
		tok, err := a.Dev.Mint(auth.Claims{Subject: auth.DevSubject(admin), Email: admin, Name: "Dev Admin", EmailVerified: true,
			Groups: []string{ports.PlatformAdminGroup}, TTL: 30 * 24 * time.Hour})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nDev platform-admin token (valid 30 days; the dev secret outlives restarts):\n\n  export TOKEN=%s\n\n", tok)
		fmt.Fprintf(stdout, "Try: curl -s -H \"Authorization: Bearer $TOKEN\" %s/accounts\n", cfg.PublicURL)
		fmt.Fprintf(stdout, "Tokens for others: go run ./apps/cmd/vetted token --email bob@acme.test\n\n")
	}
	return a.Serve(ctx, ln)
}

func token(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	email := fs.String("email", "", "e-mail claim (required)")
	name := fs.String("name", "", "name claim")
	admin := fs.Bool("admin", false, "put the token in the platform Admins group")
	unverified := fs.Bool("unverified", false, "email_verified=false")
	ttl := fs.Duration("ttl", 24*time.Hour, "lifetime")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *email == "" {
		return errors.New("token: --email is required")
	}
	// The server's secret: VETTED_AUTH_DEV_SECRET, or the one it keeps in
	// VETTED_DATA_DIR.
	cfg, err := app.FromEnv()
	if err != nil {
		return err
	}
	secret, err := app.LoadDevSecret(cfg)
	if err != nil {
		return fmt.Errorf("token: %w", err)
	}
	dev, err := auth.NewDev([]byte(secret), auth.DevOptions{Issuer: cfg.AuthIssuer, Audience: cfg.AuthAudience, GroupsClaim: cfg.AuthGroupsClaim})
	if err != nil {
		return err
	}
	c := auth.Claims{Subject: auth.DevSubject(*email), Email: *email, Name: *name, EmailVerified: !*unverified, TTL: *ttl}
	if *admin {
		c.Groups = []string{ports.PlatformAdminGroup}
	}
	tok, err := dev.Mint(c)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

func openapi(stdout io.Writer) error {
	doc, err := OpenAPIYAML()
	if err != nil {
		return err
	}
	_, err = stdout.Write(doc)
	return err
}

// OpenAPIYAML renders the OpenAPI document of the API without listening.
func OpenAPIYAML() ([]byte, error) {
	return api.Describe().OpenAPI().YAML()
}
