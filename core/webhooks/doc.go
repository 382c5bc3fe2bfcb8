// Package webhooks is the outbound webhooks area: its entities (webhook.go:
// endpoints, the event types they may ask for, deliveries and attempts; the
// wire form of events is the transport adapter's, adapters/webhook), its
// narrow store (store.go) and its use cases (service.go): the endpoints an
// account registers (admins and owners manage them, every member reads them,
// nobody reads a secret after the answer that created it), the events the
// other areas record (Emit, through uow.Unit.Event), their fan-out to one
// delivery per endpoint that wants them, and the attempts of each delivery.
//
// Delivery is at least once, through the outbox and the job runner: Emit adds
// the event to the outbox in the unit of work of the change; the fan-out job
// (outbox.KindWebhookEvent) records one delivery per endpoint, by an id
// derived from the event and the endpoint so that a fan-out run twice records
// each once, and queues its first attempt (outbox.KindWebhookAttempt). An
// attempt that fails records itself and queues the next one in the same unit
// of work, due at the sender's NextRetry (outbox.Message.DueAt: the store
// keeps it until then, across restarts and queue outages). Every attempt of a
// delivery carries the same webhook-id, so receivers drop duplicates. When the
// retry window is over the endpoint is disabled and its account's admins and
// owners are mailed.
package webhooks
