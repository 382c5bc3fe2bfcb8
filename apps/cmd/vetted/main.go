// Command vetted is the one binary of Vetted:
//
//	vetted serve         run the HTTP API and the outbox relay (SQLite in VETTED_DATA_DIR when no VETTED_DATABASE_URL)
//	vetted worker        run the asynq worker, scheduler and relay (needs VETTED_REDIS_URL)
//	vetted migrate       apply PostgreSQL migrations (VETTED_DATABASE_URL)
//	vetted token         mint a dev token: vetted token --email a@b.c [--admin] [--ttl 24h]
//	vetted import        send a CSV file of any length to a list, in batches, with a progress bar
//	vetted check-config  validate the environment without starting anything
//	vetted openapi       write the OpenAPI document (YAML) to stdout without listening
//	vetted version       print the module version, VCS commit and Go version
//
// Every command takes --help, which prints its flags and the environment
// variables it reads and exits 0 without doing anything else.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/vetted-dev/vetted/apps/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// The first signal begins a graceful stop (VETTED_SHUTDOWN_TIMEOUT);
		// giving the signals their default action back lets a second one
		// end the process at once.
		<-ctx.Done()
		stop()
	}()
	if err := run(ctx, os.Args[1:], env{stdout: os.Stdout, stderr: os.Stderr, lookup: os.LookupEnv}); err != nil {
		fmt.Fprintln(os.Stderr, "vetted:", err)
		os.Exit(exitCode(err))
	}
}

// usageError is a command line the program cannot act on (exit status 2).
type usageError struct{ error }

func exitCode(err error) int {
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// env is what a command may touch of the process: tests pass buffers and
// a map.
type env struct {
	stdout, stderr io.Writer
	lookup         func(string) (string, bool)
}

func (e env) get(k string) string {
	v, _ := e.lookup(k)
	return strings.TrimSpace(v)
}

// command is one subcommand: its flags are defined by setup, which returns
// the action to run once they are parsed.
type command struct {
	name    string
	summary string
	// envVars names the variables the command reads (listed by --help);
	// allEnv lists every setting of the service; vars, when set, lists
	// them instead. required are listed as such, without the default the
	// service would use (a command that needs one has none).
	envVars  []string
	allEnv   bool
	vars     func() []app.EnvVar
	required []string
	setup    func(fs *flag.FlagSet, e env) func(ctx context.Context) error
}

func commands() []command {
	return []command{
		{name: "serve", summary: "Run the HTTP API and the outbox relay (the embedded default without VETTED_DATABASE_URL).",
			allEnv: true, setup: serveCmd},
		{name: "worker", summary: "Run the job worker, its scheduler and an outbox relay on Redis (VETTED_REDIS_URL).",
			vars: app.WorkerEnvVars, required: []string{"VETTED_REDIS_URL"}, setup: workerCmd},
		{name: "migrate", summary: "Apply the PostgreSQL migrations (safe to run twice, and from two processes at once).",
			envVars: []string{"VETTED_DATABASE_URL", "VETTED_LOG_FORMAT", "VETTED_LOG_LEVEL"}, required: []string{"VETTED_DATABASE_URL"}, setup: migrateCmd},
		{name: "token", summary: "Mint a dev token (HS256) signed with the server's dev secret (VETTED_AUTH_DEV_SECRET, or the one kept in VETTED_DATA_DIR).",
			envVars: []string{"VETTED_AUTH_DEV_SECRET", "VETTED_DATA_DIR", "VETTED_AUTH_ISSUER", "VETTED_AUTH_AUDIENCE"}, setup: tokenCmd},
		{name: "import", summary: importSummary,
			envVars: []string{envAPIURL, envToken}, setup: importCmd},
		{name: "check-config", summary: "Validate the environment (addresses, URLs, booleans, durations) and print what would be used; starts nothing.",
			allEnv: true, setup: checkConfigCmd},
		{name: "openapi", summary: "Print the OpenAPI document (YAML) without listening.", setup: openapiCmd},
		{name: "version", summary: "Print the module version, the VCS commit and the Go version.", setup: versionCmd},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: vetted <command> [flags]\n\ncommands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nRun 'vetted <command> --help' for a command's flags and environment variables.")
}

func run(ctx context.Context, args []string, e env) error {
	if len(args) == 0 {
		usage(e.stderr)
		return usageError{errors.New("no command given")}
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return run(ctx, []string{args[1], "--help"}, e)
		}
		usage(e.stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args[1:], e)
		}
	}
	usage(e.stderr)
	return usageError{fmt.Errorf("unknown command %q", name)}
}

func (c command) run(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("vetted "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned; help goes to stdout
	action := c.setup(fs, e)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.help(e.stdout, fs)
			return nil
		}
		return usageError{fmt.Errorf("%s: %w (see 'vetted %s --help')", c.name, err, c.name)}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("%s: unexpected argument %q (see 'vetted %s --help')", c.name, fs.Arg(0), c.name)}
	}
	return action(ctx)
}

func (c command) help(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: vetted %s [flags]\n\n%s\n\nflags:\n", c.name, c.summary)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "  -help\n    \tshow this help and exit")
	vars := c.env()
	if len(vars) == 0 {
		return
	}
	fmt.Fprintln(w, "\nenvironment:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, v := range vars {
		def := ""
		switch {
		case slices.Contains(c.required, v.Name):
			def = " (required)"
		case v.Default != "":
			def = " (default " + v.Default + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", v.Name, v.Meaning, def)
	}
	tw.Flush()
}

// env lists the variables of the command with their meaning.
func (c command) env() []app.EnvVar {
	known := append(app.EnvVars(), importEnvVars()...)
	if c.vars != nil {
		return c.vars()
	}
	if c.allEnv {
		return app.EnvVars()
	}
	byName := map[string]app.EnvVar{}
	for _, v := range known {
		byName[v.Name] = v
	}
	out := make([]app.EnvVar, 0, len(c.envVars))
	for _, n := range c.envVars {
		v, ok := byName[n]
		if !ok {
			v = app.EnvVar{Name: n}
		}
		out = append(out, v)
	}
	return out
}
