package mailtmpl

import "time"

// UnsubscribeTTL is how long the unsubscribe link of a mail works (alerts
// and review reminders alike): long enough for an old mail in an inbox.
const UnsubscribeTTL = 180 * 24 * time.Hour
