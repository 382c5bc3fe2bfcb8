package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/ports"
)

// setupProcess reads the configuration and builds the process logger (also
// slog's default, so that every library logs in the same format). The log
// is gathered in memory (obs.LineBuffer); the caller runs the returned
// function before it returns, which writes what is left.
//
// load reads the configuration: app.LoadServe for serve (the validation
// check-config runs), app.FromLookup for the other commands; warnings are
// the settings worth a warning to the command (nil: none).
func setupProcess(e env, load func(func(string) (string, bool)) (app.Config, error),
	warnings func(app.Config, func(string) (string, bool)) []string) (app.Config, *slog.Logger, func(), error) {
	cfg, err := load(e.lookup)
	if err != nil {
		return cfg, nil, nil, err
	}
	out := obs.NewLineBuffer(e.stderr)
	log := obs.NewLogger(out, cfg.LogFormat, cfg.LogLevel)
	slog.SetDefault(log)
	if warnings != nil {
		for _, w := range warnings(cfg, e.lookup) {
			log.Warn(w)
		}
	}
	return cfg, log, func() { _ = out.Close() }, nil
}

// startTracing starts OpenTelemetry export when OTEL_EXPORTER_OTLP_ENDPOINT
// is set; the returned function flushes it.
func startTracing(ctx context.Context, component string, log *slog.Logger) (func(), error) {
	shutdown, err := obs.StartTracing(ctx, component, moduleVersion())
	if err != nil {
		return nil, err
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdown(sctx); err != nil {
			log.Warn("flush traces", "err", err)
		}
	}, nil
}

func serveCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error {
		cfg, log, flushLog, err := setupProcess(e, app.LoadServe, app.Config.Warnings)
		if err != nil {
			return err
		}
		defer flushLog()
		stopTracing, err := startTracing(ctx, "api", log)
		if err != nil {
			return err
		}
		defer stopTracing()
		a, err := app.Build(ctx, cfg, app.Overrides{Logger: log})
		if err != nil {
			return err
		}
		defer a.Close(context.Background())
		ln, err := net.Listen("tcp", cfg.HTTPAddr)
		if err != nil {
			return err
		}
		log.Info("vetted listening", "addr", ln.Addr().String(), "store", cfg.DescribeStore(), "docs", cfg.PublicURL+"/docs", "version", moduleVersion())
		if a.Dev != nil {
			const admin = "admin@vetted.local"
			tok, err := a.Dev.Mint(auth.Claims{Subject: auth.DevSubject(admin), Email: admin, Name: "Dev Admin", EmailVerified: true,
				Groups: []string{ports.PlatformAdminGroup}, TTL: 30 * 24 * time.Hour})
			if err != nil {
				return err
			}
			lasts := "the dev secret outlives restarts"
			mintCmd := "go run ./apps/cmd/vetted token --email bob@acme.test"
			if a.EphemeralDevSecret != "" {
				// The memory store writes no secret to disk: the way to
				// mint more tokens is the secret itself.
				lasts = "until this process stops: the memory store keeps its dev secret in memory"
				mintCmd = "VETTED_AUTH_DEV_SECRET=" + a.EphemeralDevSecret + " " + mintCmd
			}
			fmt.Fprintf(e.stdout, "\nDev platform-admin token (valid 30 days; %s):\n\n  export TOKEN=%s\n\n", lasts, tok)
			fmt.Fprintf(e.stdout, "Try: curl -s -H \"Authorization: Bearer $TOKEN\" %s/accounts\n", cfg.PublicURL)
			fmt.Fprintf(e.stdout, "Tokens for others: %s\n\n", mintCmd)
		}
		if err := a.Serve(ctx, ln); err != nil {
			return err
		}
		log.Info("vetted stopped")
		return nil
	}
}

func workerCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error {
		cfg, log, flushLog, err := setupProcess(e, app.FromLookup, app.Config.WorkerWarnings)
		if err != nil {
			return err
		}
		defer flushLog()
		if cfg.RedisURL == "" {
			return errors.New("worker: set VETTED_REDIS_URL (the embedded default runs jobs inside vetted serve)")
		}
		stopTracing, err := startTracing(ctx, "worker", log)
		if err != nil {
			return err
		}
		defer stopTracing()
		return app.RunWorker(ctx, cfg, log)
	}
}

func migrateCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error {
		cfg, log, flushLog, err := setupProcess(e, app.FromLookup, nil)
		if err != nil {
			return err
		}
		defer flushLog()
		if cfg.DatabaseURL == "" {
			return errors.New("migrate: set VETTED_DATABASE_URL")
		}
		return app.Migrate(ctx, cfg, log)
	}
}

func tokenCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	email := fs.String("email", "", "e-mail claim (required)")
	name := fs.String("name", "", "name claim")
	admin := fs.Bool("admin", false, "put the token in the platform Admins group")
	unverified := fs.Bool("unverified", false, "email_verified=false")
	ttl := fs.Duration("ttl", 24*time.Hour, "lifetime (positive, e.g. 24h)")
	return func(context.Context) error {
		if *email == "" {
			return usageError{errors.New("token: --email is required")}
		}
		if *ttl <= 0 {
			return usageError{fmt.Errorf("token: --ttl must be positive (e.g. 24h), not %s", *ttl)}
		}
		// The server's secret: VETTED_AUTH_DEV_SECRET, or the one it keeps
		// in VETTED_DATA_DIR.
		cfg, err := app.FromLookup(e.lookup)
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
		fmt.Fprintln(e.stdout, tok)
		return nil
	}
}
