package records

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// The note rule. A note is plain text a member appends to a record: valid
// UTF-8 without control characters other than tab and line breaks (a
// carriage return becomes a line break), trimmed, not empty, at most
// MaxNoteLength characters. Notes are never edited or removed: the record
// is a log of what was said. Author is the writer's e-mail.
type Note struct {
	ID        uuid.UUID
	AccountID uuid.UUID
	VendorID  uuid.UUID
	Author    string
	CreatedAt time.Time
	Text      string
}

// MaxNoteLength bounds a note's text, in characters.
const MaxNoteLength = 5000

// NormalizeNoteText applies the note rule to a text.
func NormalizeNoteText(raw string) (string, error) {
	if !utf8.ValidString(raw) {
		return "", core.Invalid("Note.Text", "must be valid UTF-8")
	}
	s := strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n")
	if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }); i >= 0 {
		return "", core.Invalid("Note.Text", "must not contain control characters (found %U)", []rune(s[i:])[0])
	}
	s = strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", core.Invalid("Note.Text", "is required")
	case n > MaxNoteLength:
		return "", core.Invalid("Note.Text", "must be at most %d characters", MaxNoteLength)
	}
	return s, nil
}
