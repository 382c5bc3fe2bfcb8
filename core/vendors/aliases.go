package vendors

import (
	"encoding/json"
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// AliasesMember is the top-level member of a PATCH /vendor merge patch
// that sets the directory entry's aliases (Vendor.Aliases), beside the
// profile's content groups. The entry's aliases are the other names the
// incident sources may call the vendor by; unlike company.alias, which is
// part of the profile enrichment fills, they are set by hand only.
const AliasesMember = "aliases"

// The bounds of a directory entry's aliases.
const (
	MaxAliases  = 50
	MaxAliasLen = MaxNameLen
)

// ParseAliases reads the aliases member of a merge patch: null or an empty
// array clears them; otherwise an array of at most MaxAliases strings, each
// plain text of at most MaxAliasLen characters once trimmed (inner white
// space collapsed), none empty. Aliases that differ only in case are one:
// the first spelling is kept, in the order given. Errors name
// Patch.aliases, as the client wrote it.
func ParseAliases(value json.RawMessage) ([]string, error) {
	field := patchField(AliasesMember)
	var raw []json.RawMessage
	if err := json.Unmarshal(value, &raw); err != nil {
		return nil, core.Invalid(field, "must be an array of strings or null")
	}
	if len(raw) > MaxAliases {
		return nil, core.Invalid(field, "must hold at most %d aliases (has %d)", MaxAliases, len(raw))
	}
	var errs core.Fields
	out := []string{}
	seen := map[string]bool{}
	for i, item := range raw {
		var s string
		if string(item) == "null" || json.Unmarshal(item, &s) != nil {
			errs.Add(field, "item %d must be a string", i)
			continue
		}
		a, err := core.PlainText(field, s, MaxAliasLen)
		if err != nil {
			if ce, ok := core.AsError(err); ok {
				errs.Add(field, "item %d %s", i, ce.Detail)
			}
			continue
		}
		if a == "" {
			errs.Add(field, "item %d must not be empty", i)
			continue
		}
		if key := strings.ToLower(a); !seen[key] {
			seen[key] = true
			out = append(out, a)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// splitAliases takes the aliases member out of a merge patch: what is left
// are the profile's groups, for Profile.ApplyPatch. ok reports whether the
// patch had the member.
func splitAliases(patch map[string]json.RawMessage) (profile map[string]json.RawMessage, aliases json.RawMessage, ok bool) {
	aliases, ok = patch[AliasesMember]
	profile = make(map[string]json.RawMessage, len(patch))
	for k, v := range patch {
		if k != AliasesMember {
			profile[k] = v
		}
	}
	return profile, aliases, ok
}
