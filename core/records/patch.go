package records

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/vetted-dev/vetted/core"
)

// The patch rule. PATCH /vendor-records takes a JSON merge patch (RFC
// 7396) over the record: business_owner (a string, or null to clear),
// contacts (an array replacing the whole list, or null to clear), links (an
// object whose keys trust_page, dpa, terms and sla each set one link, null
// or "" clearing it; links: null clears them all). The record's read-only
// fields (account_id, vendor_id, notes, updated_at, updated_by) may be sent
// back as GET answered them and are ignored, so that a client may PATCH
// what it read. Any other key, or a value of the wrong type, is refused
// naming it.
type Patch struct {
	Owner      *string
	Contacts   *[]Contact
	ClearLinks bool
	Links      map[string]string // link wire name to value, "" clears
}

// ReadOnly are the keys of the record a patch may carry and that it
// ignores.
func ReadOnly() []string {
	return []string{"account_id", "vendor_id", "notes", "updated_at", "updated_by"}
}

type contactJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

// ParsePatch reads a merge patch. Its values are checked by Apply.
func ParsePatch(body map[string]json.RawMessage) (Patch, error) {
	var (
		p    Patch
		errs core.Fields
	)
	for _, key := range slices.Sorted(maps.Keys(body)) {
		raw := body[key]
		null := bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
		switch key {
		case "business_owner":
			var s string
			if !null && json.Unmarshal(raw, &s) != nil {
				errs.Add(patchField(key), "must be an e-mail address or null")
				continue
			}
			p.Owner = &s
		case "contacts":
			cs, err := parseContacts(raw, null)
			if err != nil {
				errs.AddErr(err)
				continue
			}
			p.Contacts = &cs
		case "links":
			if null {
				p.ClearLinks = true
				continue
			}
			var m map[string]*string
			if json.Unmarshal(raw, &m) != nil {
				errs.Add(patchField(key), "must be an object of trust_page, dpa, terms and sla, or null")
				continue
			}
			p.Links = map[string]string{}
			for _, name := range slices.Sorted(maps.Keys(m)) {
				v := m[name]
				if !slices.Contains(LinkNames(), name) {
					errs.Add(patchField("links."+name), "is not a link of the record (trust_page, dpa, terms, sla)")
					continue
				}
				p.Links[name] = ""
				if v != nil {
					p.Links[name] = *v
				}
			}
		default:
			if !slices.Contains(ReadOnly(), key) {
				errs.Add(patchField(key), "is not a field of the vendor record (business_owner, contacts, links)")
			}
		}
	}
	return p, errs.Err()
}

// parseContacts decodes the contacts of a patch; null is none.
func parseContacts(raw json.RawMessage, null bool) ([]Contact, error) {
	out := []Contact{}
	if null {
		return out, nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, core.Invalid(patchField("contacts"), "must be an array of {name, email, role}, or null")
	}
	var errs core.Fields
	for i, item := range items {
		var c contactJSON
		d := json.NewDecoder(bytes.NewReader(item))
		d.DisallowUnknownFields()
		if d.Decode(&c) != nil {
			errs.Add(core.Index(patchField("contacts"), i), "must be an object of name, email and role (strings)")
			continue
		}
		out = append(out, Contact(c))
	}
	return out, errs.Err()
}

// Apply returns r with the patch applied, its contacts and links checked;
// the owner is checked by the service against the account's members.
func (p Patch) Apply(r Record) (Record, error) {
	var errs core.Fields
	if p.Owner != nil {
		r.BusinessOwner = *p.Owner
	}
	if p.Contacts != nil {
		cs, err := NormalizeContacts(*p.Contacts)
		if !errs.AddErr(err) {
			r.Contacts = cs
		}
	}
	if p.ClearLinks {
		r.Links = Links{}
	}
	for name, v := range p.Links {
		*r.Links.ref(name) = v
	}
	links, err := NormalizeLinks(r.Links)
	if !errs.AddErr(err) {
		r.Links = links
	}
	return r, errs.Err()
}

// patchField is the error field of a member of the merge patch: the patch
// is a document the core reads, as PATCH /vendor's is, so its members are
// named as the client wrote them, under "Patch." (the API drops it).
func patchField(name string) string { return "Patch." + name }
