// Command composecheck validates a Compose file as `docker compose config`
// does, without Docker: it loads it with compose-go (the library of
// docker compose), which checks it against the Compose specification's
// schema, interpolates and normalizes it. deploy/k8s/validate.sh runs it
// on deploy/compose.yaml, so the file is checked where Docker is absent
// (CI, this project's machines).
//
//	go run . ../compose.yaml
package main

import (
	"context"
	"fmt"
	"os"
	"sort"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: composecheck FILE")
		os.Exit(2)
	}
	opts, err := cli.NewProjectOptions([]string{os.Args[1]})
	if err == nil {
		var p interface{ ServiceNames() []string }
		if p, err = cli.ProjectFromOptions(context.Background(), opts); err == nil {
			names := p.ServiceNames()
			sort.Strings(names)
			fmt.Printf("compose: %s is valid: services %v\n", os.Args[1], names)
			return
		}
	}
	fmt.Fprintf(os.Stderr, "compose: %v\n", err)
	os.Exit(1)
}
