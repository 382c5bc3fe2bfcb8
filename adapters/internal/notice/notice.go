// Package notice is the wire form of a ports.Changed notice, shared by the
// change feeds that carry text (PostgreSQL NOTIFY, Redis pub/sub): "*" for
// every vendor, else the vendors' UUIDs separated by commas, after a "+"
// when account data changed too ("+" alone: account data only). An empty
// payload is a ping that names nothing. A process of an older release reads
// a payload with "+" as an error, which it takes as every vendor changed.
package notice

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/ports"
)

// MaxLen is the longest payload Encode writes; a longer list is sent as
// "*". PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
const MaxLen = 7900

// Encode writes c as a payload.
func Encode(c ports.Changed) string {
	var b strings.Builder
	if c.Data {
		b.WriteByte('+')
	}
	if c.All || len(c.Vendors)*37 > MaxLen {
		b.WriteByte('*')
		return b.String()
	}
	b.Grow(len(c.Vendors) * 37)
	for i, id := range c.Vendors {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(id.String())
	}
	return b.String()
}

// Decode reads a payload; ok is false for a ping. A payload that is not one
// Encode writes is an error (the caller treats it as every vendor changed).
func Decode(payload string) (c ports.Changed, ok bool, err error) {
	if rest, data := strings.CutPrefix(payload, "+"); data {
		c.Data, payload = true, rest
		if payload == "" {
			return c, true, nil
		}
	}
	switch payload {
	case "":
		return c, false, nil
	case "*":
		c.All = true
		return c, true, nil
	}
	for s := range strings.SplitSeq(payload, ",") {
		id, err := uuid.Parse(s)
		if err != nil {
			return ports.Changed{All: true, Data: true}, true, fmt.Errorf("change notice %.80q: %w", payload, err)
		}
		c.Vendors = append(c.Vendors, id)
	}
	return c, true, nil
}
