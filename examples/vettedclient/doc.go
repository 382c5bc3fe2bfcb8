// Package vettedclient is a Go client of the Vetted HTTP API, generated with
// oapi-codegen from openapi/openapi.yaml without any edit: it is the proof
// that the OpenAPI document generates a client that compiles and works (see
// examples/apiclient). Regenerate it with `go generate ./vettedclient` in
// the examples module; CI checks that the committed file is up to date.
package vettedclient

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../../openapi/openapi.yaml
