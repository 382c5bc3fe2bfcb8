package enrich_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"golang.org/x/net/dns/dnsmessage"
)

// dnsServer answers CAA questions on 127.0.0.1 from records; a name not in
// records gets NXDOMAIN.
func dnsServer(t *testing.T, records map[string][][]byte) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var q dnsmessage.Message
			if q.Unpack(buf[:n]) != nil || len(q.Questions) != 1 {
				continue
			}
			resp := dnsmessage.Message{Header: dnsmessage.Header{ID: q.ID, Response: true}, Questions: q.Questions}
			rdatas, ok := records[q.Questions[0].Name.String()]
			if !ok {
				resp.RCode = dnsmessage.RCodeNameError
			}
			for _, rd := range rdatas {
				resp.Answers = append(resp.Answers, dnsmessage.Resource{
					Header: dnsmessage.ResourceHeader{Name: q.Questions[0].Name, Type: 257, Class: dnsmessage.ClassINET, TTL: 60},
					Body:   &dnsmessage.UnknownResource{Type: 257, Data: rd},
				})
			}
			out, _ := resp.Pack()
			_, _ = pc.WriteTo(out, addr)
		}
	}()
	return pc.LocalAddr().String()
}

func caa(tag, value string) []byte {
	return append(append([]byte{0, byte(len(tag))}, tag...), value...)
}

func TestNetResolverCAA(t *testing.T) {
	t.Parallel()
	server := dnsServer(t, map[string][][]byte{
		"acme.example.":  {caa("issue", "letsencrypt.org"), caa("iodef", "mailto:sec@acme.example")},
		"empty.example.": nil,
	})
	r := enrich.NetResolver{Server: server}
	tests := []struct {
		name string
		want []string
		err  error
	}{
		{"acme.example", []string{"issue letsencrypt.org", "iodef mailto:sec@acme.example"}, nil},
		{"empty.example", nil, enrich.ErrNoRecords},
		{"missing.example", nil, enrich.ErrNoRecords},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.LookupCAA(context.Background(), tc.name)
			if !errors.Is(err, tc.err) || !slices.Equal(got, tc.want) {
				t.Fatalf("LookupCAA = %v, %v; want %v, %v", got, err, tc.want, tc.err)
			}
		})
	}
}
