package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunServesTheAPIFromItsOwnServer(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"store: memory", "GET /hello -> 200 hello from the host program", `GET /healthz -> 200 {"status":"ok"}`, `GET /accounts -> 200 {"accounts":`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
