package smtp_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	gosmtp "github.com/emersion/go-smtp"
)

// received is one message the test server accepted.
type received struct {
	From string
	To   []string
	Data []byte
	User string // authenticated user, if any
	TLS  bool
}

// server is an in-process go-smtp server on 127.0.0.1 that captures mail.
// Recipients whose local part starts with "tempfail" get 451 at RCPT,
// "reject" get 550; dataErr, when set, is the reply to DATA.
type server struct {
	Addr string

	mu      sync.Mutex
	msgs    []received
	dataErr error
	users   map[string]string // nil: no AUTH offered
}

type serverConfig struct {
	tls      *tls.Config // STARTTLS offered when set (or implicit with implicitTLS)
	implicit bool
	users    map[string]string
}

func startServer(t *testing.T, cfg serverConfig) *server {
	t.Helper()
	s := &server{users: cfg.users}
	srv := gosmtp.NewServer(gosmtp.BackendFunc(func(c *gosmtp.Conn) (gosmtp.Session, error) {
		return &session{srv: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.TLSConfig = cfg.tls
	var (
		l   net.Listener
		err error
	)
	if cfg.implicit {
		l, err = tls.Listen("tcp", "127.0.0.1:0", cfg.tls)
	} else {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

func (s *server) messages() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.msgs...)
}

func (s *server) setDataErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dataErr = err
}

type session struct {
	srv  *server
	conn *gosmtp.Conn
	from string
	to   []string
	user string
}

func (ss *session) AuthMechanisms() []string {
	if ss.srv.users == nil {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if want, ok := ss.srv.users[user]; !ok || want != pass {
			return gosmtp.ErrAuthFailed
		}
		ss.user = user
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *gosmtp.MailOptions) error {
	if ss.srv.users != nil && ss.user == "" {
		return gosmtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	switch {
	case strings.HasPrefix(to, "tempfail"):
		return &gosmtp.SMTPError{Code: 451, EnhancedCode: gosmtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	case strings.HasPrefix(to, "reject"):
		return &gosmtp.SMTPError{Code: 550, EnhancedCode: gosmtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.srv.mu.Lock()
	defer ss.srv.mu.Unlock()
	if ss.srv.dataErr != nil {
		return ss.srv.dataErr
	}
	_, isTLS := ss.conn.TLSConnectionState()
	ss.srv.msgs = append(ss.srv.msgs, received{From: ss.from, To: ss.to, Data: b, User: ss.user, TLS: isTLS})
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// selfSigned returns a server TLS config for 127.0.0.1 and a client config
// that trusts it.
func selfSigned(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "vetted test smtp"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool}
}
