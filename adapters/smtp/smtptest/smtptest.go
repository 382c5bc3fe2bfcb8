// Package smtptest runs an SMTP server on loopback for tests that must stop
// and start it (an outage) or see what it received, Message-ID included:
// it accepts every mail without TLS or AUTH and keeps it. A hook runs when
// a mail has been received and before the server answers it, so a test can
// kill the sender in the window where the server has the mail and the
// sender does not know it yet.
package smtptest

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"
)

// Message is one mail the server accepted.
type Message struct {
	From string
	To   []string
	// MessageID is the Message-ID header without its angle brackets.
	MessageID string
	Subject   string
	Data      []byte
}

// Server is an SMTP server on one loopback address, which it keeps across
// Stop and Start.
type Server struct {
	addr string

	mu     sync.Mutex
	srv    *gosmtp.Server // nil while stopped
	ln     net.Listener
	msgs   []Message
	onData func(Message)
}

// Start runs a server on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtptest: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Listen runs a server on addr; the caller stops it.
func Listen(addr string) (*Server, error) {
	s := &Server{addr: addr}
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// Addr is host:port of the server, also while it is stopped.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Start listens again on the server's address after Stop; starting a
// running server does nothing.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return nil
	}
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	s.addr = l.Addr().String()
	srv := gosmtp.NewServer(gosmtp.BackendFunc(func(*gosmtp.Conn) (gosmtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0) // senders killed mid-session are what tests do
	s.srv, s.ln = srv, l
	go func() { _ = srv.Serve(l) }()
	return nil
}

// Stop closes the listener and every connection: senders now meet a
// refused connection, as when the mail server is down.
func (s *Server) Stop() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if srv != nil {
		// The listener too: Serve may not have registered it with the
		// server yet, and then Close would leave it open.
		_ = ln.Close()
		_ = srv.Close()
	}
}

// OnData sets a function that runs with each mail once it is received and
// kept, before the server answers the sender; nil removes it.
func (s *Server) OnData(f func(Message)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onData = f
}

// Messages returns what the server accepted, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// CountByMessageID counts the accepted mails per Message-ID.
func (s *Server) CountByMessageID() map[string]int {
	out := map[string]int{}
	for _, m := range s.Messages() {
		out[m.MessageID]++
	}
	return out
}

type session struct {
	s    *Server
	from string
	to   []string
}

func (ss *session) Mail(from string, _ *gosmtp.MailOptions) error {
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	parsed, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("smtptest: unreadable mail: %w", err)
	}
	m := Message{From: ss.from, To: ss.to, Data: b, Subject: parsed.Header.Get("Subject"),
		MessageID: strings.Trim(parsed.Header.Get("Message-Id"), "<> ")}
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, m)
	hook := ss.s.onData
	ss.s.mu.Unlock()
	if hook != nil {
		hook(m)
	}
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }
