package convert_test

import (
	"strconv"
	"testing"

	"github.com/vetted-dev/vetted/internal/convert"
)

func TestSlice(t *testing.T) {
	t.Parallel()
	if got := convert.Slice([]int(nil), strconv.Itoa); got != nil {
		t.Fatalf("nil became %#v", got)
	}
	if got := convert.Slice([]int{}, strconv.Itoa); got == nil || len(got) != 0 {
		t.Fatalf("empty became %#v", got)
	}
	if got := convert.Slice([]int{1, 22}, strconv.Itoa); len(got) != 2 || got[0] != "1" || got[1] != "22" {
		t.Fatalf("got %#v", got)
	}
}
