// Command op is an OpenID provider for the console's browser suite: the
// zitadel/oidc example provider (in memory, one user test-user@127.0.0.1
// with the password "verysecure"), with one public client using PKCE
// whose redirect URI is the console's callback. It listens on loopback.
//
//	OP_PORT=9998 OP_CLIENT_ID=vetted-console OP_REDIRECT_URI=http://127.0.0.1:8080/app/callback op
package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// store is the example storage whose clients get the user's claims (e-mail,
// name) in the ID token, as providers set up for Vetted do: the API reads
// the e-mail from the token it is sent.
type store struct{ *storage.Storage }

func (s store) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	return claimsInIDToken{c}, nil
}

type claimsInIDToken struct{ op.Client }

func (claimsInIDToken) IDTokenUserinfoClaimsAssertion() bool { return true }

func main() {
	port, client, redirect := os.Getenv("OP_PORT"), os.Getenv("OP_CLIENT_ID"), os.Getenv("OP_REDIRECT_URI")
	if port == "" || client == "" || redirect == "" {
		fmt.Fprintln(os.Stderr, "op: set OP_PORT, OP_CLIENT_ID and OP_REDIRECT_URI")
		os.Exit(2)
	}
	issuer := fmt.Sprintf("http://127.0.0.1:%s/", port)
	storage.RegisterClients(storage.NativeClient(client, redirect))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	router := exampleop.SetupServer(issuer, store{storage.NewStorage(storage.NewUserStore(issuer))}, log, false)
	srv := &http.Server{Addr: "127.0.0.1:" + port, Handler: router}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "op:", err)
		os.Exit(1)
	}
}
