package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunEnrichesThroughTheRelay(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 queued for enrichment", "enrichment ran 2 times", "Slack (custom: false, enrichment: done"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
