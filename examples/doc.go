// Package examples shows how another Go program uses Vetted: embed/ runs
// the core with the memory adapters and the outbox relay, mount/ serves the
// HTTP API from the program's own http.Server.
package examples
