// Package notice is the wire form of a stores.Changed notice, shared by the
// change feeds that carry text (PostgreSQL NOTIFY, Redis pub/sub): "*" for
// every vendor, else the vendors' UUIDs separated by commas, after a "+"
// when account data changed too ("+" alone: account data only). When that
// data was only some accounts', "+" is followed by "@", their UUIDs
// separated by commas, and ";". An empty payload is a ping that names
// nothing. A process of an older release reads a payload with "+" or "@"
// as an error, which it takes as every vendor and all data changed.
package notice

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/ports/stores"
)

// MaxLen is the longest payload Encode writes; a longer list is sent as
// "*". PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
const MaxLen = 7900

// Encode writes c as a payload.
func Encode(c stores.Changed) string {
	var b strings.Builder
	if c.Data {
		b.WriteByte('+')
		if len(c.Accounts) > 0 && len(c.Accounts)*37 <= MaxLen/2 {
			b.WriteByte('@')
			writeIDs(&b, c.Accounts)
			b.WriteByte(';')
		}
	}
	if c.All || b.Len()+len(c.Vendors)*37 > MaxLen {
		b.WriteByte('*')
		return b.String()
	}
	writeIDs(&b, c.Vendors)
	return b.String()
}

func writeIDs(b *strings.Builder, ids []uuid.UUID) {
	b.Grow(len(ids) * 37)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(id.String())
	}
}

func parseIDs(s string) ([]uuid.UUID, error) {
	var out []uuid.UUID
	for part := range strings.SplitSeq(s, ",") {
		id, err := uuid.Parse(part)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// Decode reads a payload; ok is false for a ping. A payload that is not one
// Encode writes is an error (the caller treats it as every vendor changed).
func Decode(payload string) (c stores.Changed, ok bool, err error) {
	bad := func(err error) (stores.Changed, bool, error) {
		return stores.Changed{All: true, Data: true}, true, fmt.Errorf("change notice %.80q: %w", payload, err)
	}
	if rest, data := strings.CutPrefix(payload, "+"); data {
		c.Data, payload = true, rest
		if rest, scoped := strings.CutPrefix(payload, "@"); scoped {
			accounts, after, ok := strings.Cut(rest, ";")
			if !ok {
				return bad(fmt.Errorf("accounts without %q", ";"))
			}
			if c.Accounts, err = parseIDs(accounts); err != nil {
				return bad(err)
			}
			payload = after
		}
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
	if c.Vendors, err = parseIDs(payload); err != nil {
		return bad(err)
	}
	return c, true, nil
}
