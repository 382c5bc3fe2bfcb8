package enrich

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// ErrNoRecords means the name exists with no records of the asked type, or
// does not exist: the check answers "missing", not "unknown".
var ErrNoRecords = errors.New("no records")

// Resolver is the DNS the security section asks. Both methods return
// ErrNoRecords (wrapped or not) when there is nothing; any other error
// means the answer is unknown.
type Resolver interface {
	// LookupTXT returns the TXT strings at name.
	LookupTXT(ctx context.Context, name string) ([]string, error)
	// LookupCAA returns the CAA records at name as `tag value`, e.g.
	// `issue letsencrypt.org`.
	LookupCAA(ctx context.Context, name string) ([]string, error)
}

// NetResolver is the default Resolver: TXT through net.Resolver, and CAA
// (which the standard library cannot ask for) as a single UDP query to the
// first name server of /etc/resolv.conf, or Server when set.
type NetResolver struct {
	// Resolver answers TXT; net.DefaultResolver when nil.
	Resolver *net.Resolver
	// Server is "host:port" of the name server for CAA queries.
	Server string
	// Timeout bounds a CAA query; 5 s when zero.
	Timeout time.Duration
}

// LookupTXT implements Resolver.
func (r NetResolver) LookupTXT(ctx context.Context, name string) ([]string, error) {
	res := r.Resolver
	if res == nil {
		res = net.DefaultResolver
	}
	txt, err := res.LookupTXT(ctx, name)
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return nil, ErrNoRecords
	}
	if err == nil && len(txt) == 0 {
		return nil, ErrNoRecords
	}
	return txt, err
}

const typeCAA dnsmessage.Type = 257

// LookupCAA implements Resolver.
func (r NetResolver) LookupCAA(ctx context.Context, name string) ([]string, error) {
	server := r.Server
	if server == "" {
		server = systemNameServer()
	}
	if server == "" {
		return nil, errors.New("no name server configured")
	}
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	qname, err := dnsmessage.NewName(strings.TrimSuffix(name, ".") + ".")
	if err != nil {
		return nil, err
	}
	var idb [2]byte
	_, _ = rand.Read(idb[:])
	id := binary.BigEndian.Uint16(idb[:])
	q := dnsmessage.Message{
		Header:    dnsmessage.Header{ID: id, RecursionDesired: true},
		Questions: []dnsmessage.Question{{Name: qname, Type: typeCAA, Class: dnsmessage.ClassINET}},
	}
	packed, err := q.Pack()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "udp", server)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if _, err := conn.Write(packed); err != nil {
		return nil, err
	}
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return nil, err
		}
		var resp dnsmessage.Message
		if err := resp.Unpack(buf[:n]); err != nil || resp.ID != id || !resp.Response {
			continue // not our answer; keep reading until the deadline
		}
		return caaAnswers(resp)
	}
}

func caaAnswers(resp dnsmessage.Message) ([]string, error) {
	switch resp.RCode {
	case dnsmessage.RCodeSuccess:
	case dnsmessage.RCodeNameError:
		return nil, ErrNoRecords
	default:
		return nil, fmt.Errorf("dns: %s", resp.RCode)
	}
	var out []string
	for _, a := range resp.Answers {
		u, ok := a.Body.(*dnsmessage.UnknownResource)
		if !ok || a.Header.Type != typeCAA || len(u.Data) < 2 {
			continue
		}
		tagLen := int(u.Data[1])
		if 2+tagLen > len(u.Data) {
			continue
		}
		out = append(out, string(u.Data[2:2+tagLen])+" "+string(u.Data[2+tagLen:]))
	}
	if len(out) == 0 {
		return nil, ErrNoRecords
	}
	return out, nil
}

// systemNameServer reads the first nameserver line of /etc/resolv.conf.
func systemNameServer() string {
	f, err := os.Open("/etc/resolv.conf")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "nameserver" {
			return net.JoinHostPort(fs[1], "53")
		}
	}
	return ""
}
