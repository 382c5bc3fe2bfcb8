// Package platform groups the plumbing every business area of the core
// shares and none owns: the outbox and its relay, mail at most once
// (mailonce) and the mail templates (mailtmpl), the unit of work (uow),
// the bounded expiring cache (ttlcache) and signed links (signedlink). A
// rule of the business lives in its area's package (core/accounts,
// core/vendors, core/lists, core/assessments, core/alerts, core/webhooks),
// never here.
package platform
