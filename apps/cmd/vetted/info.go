package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"text/tabwriter"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/apps/obs"
)

func openapiCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(context.Context) error {
		doc, err := OpenAPIYAML()
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(doc)
		return err
	}
}

// OpenAPIYAML renders the OpenAPI document of the API without listening.
func OpenAPIYAML() ([]byte, error) {
	return api.Describe().OpenAPI().YAML()
}

// version and commit may be set at link time (-ldflags "-X main.version=...
// -X main.commit=..."), for builds whose VCS data Go cannot record (a
// container build context without .git, -buildvcs=false).
var version, commit string

// buildInfo is what the binary knows about its own build.
type buildInfo struct {
	Module, Version, Commit, CommitTime, Go string
	Modified                                bool
}

func readBuildInfo() buildInfo {
	b := buildInfo{Module: "github.com/vetted-dev/vetted/apps", Version: "(unknown)", Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.Module, b.Version, b.Go = bi.Main.Path, bi.Main.Version, bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.CommitTime = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		b.Version = version
	}
	if commit != "" {
		b.Commit = commit
	}
	return b
}

func moduleVersion() string {
	b := readBuildInfo()
	if b.Commit != "" && (b.Version == "" || b.Version == "(devel)") {
		return b.Commit[:min(12, len(b.Commit))]
	}
	return b.Version
}

func versionCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(context.Context) error {
		b := readBuildInfo()
		commit := b.Commit
		if commit == "" {
			commit = "(not recorded: built outside a VCS checkout or with -buildvcs=false)"
		} else if b.Modified {
			commit += " (modified)"
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 1, ' ', 0)
		fmt.Fprintf(tw, "vetted\t%s\n", b.Version)
		fmt.Fprintf(tw, "module\t%s\n", b.Module)
		fmt.Fprintf(tw, "commit\t%s\n", commit)
		if b.CommitTime != "" {
			fmt.Fprintf(tw, "committed\t%s\n", b.CommitTime)
		}
		fmt.Fprintf(tw, "go\t%s %s/%s\n", b.Go, runtime.GOOS, runtime.GOARCH)
		fmt.Fprintf(tw, "api\t%s\n", api.Version)
		return tw.Flush()
	}
}

func checkConfigCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(context.Context) error {
		// The validation serve runs: what passes here, serve starts.
		cfg, err := app.LoadServe(e.lookup)
		if err != nil {
			return err
		}
		pick := func(set bool, yes, no string) string {
			if set {
				return yes
			}
			return no
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "listen\t%s\n", cfg.HTTPAddr)
		fmt.Fprintf(tw, "public URL\t%s\n", cfg.PublicURL)
		fmt.Fprintf(tw, "request bodies\tup to %s to arrive\n", cfg.HTTPBodyTimeout)
		fmt.Fprintf(tw, "admin listener\t%s\n", pick(cfg.AdminAddr != "", cfg.AdminAddr+" (/metrics, /debug/pprof)", "off"))
		fmt.Fprintf(tw, "logs\t%s, level %s\n", cfg.LogFormat, cfg.LogLevel)
		fmt.Fprintf(tw, "store\t%s\n", cfg.DescribeStore())
		fmt.Fprintf(tw, "jobs\t%s\n", pick(cfg.RedisURL != "", "asynq on Redis "+app.Redact(cfg.RedisURL), "in process"))
		fmt.Fprintf(tw, "evidence\t%s\n", cfg.DescribeEvidence())
		fmt.Fprintf(tw, "incident feeds\t%s\n", cfg.DescribeIncidentSources())
		fmt.Fprintf(tw, "mail\t%s\n", pick(cfg.SMTPURL != "", "SMTP "+app.Redact(cfg.SMTPURL), "log mailbox"))
		fmt.Fprintf(tw, "tokens\t%s\n", pick(cfg.AuthJWKSURL != "", "JWKS "+cfg.AuthJWKSURL, "dev HS256 secret"))
		fmt.Fprintf(tw, "traces\t%s\n", pick(obs.TracingEnabled(e.lookup), "OTLP/HTTP to "+e.get("OTEL_EXPORTER_OTLP_ENDPOINT")+e.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), "off"))
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, w := range cfg.Warnings(e.lookup) {
			fmt.Fprintln(e.stdout, "warning:", w)
		}
		fmt.Fprintln(e.stdout, "configuration is valid")
		return nil
	}
}
