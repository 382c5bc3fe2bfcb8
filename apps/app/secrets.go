package app

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/vetted-dev/vetted/adapters/auth"
)

// DevSecretFile is the file in the data directory that keeps the dev token
// secret when VETTED_AUTH_DEV_SECRET is unset, so that tokens survive a
// restart and vetted token can mint more.
const DevSecretFile = "dev-secret"

// signingKeyFile keeps the HMAC key of mail links and blob URLs of the
// SQLite profile, so that links mailed before a restart still work.
const signingKeyFile = "signing-key"

// LoadDevSecret returns the secret that dev tokens for a server started
// with cfg are signed with: VETTED_AUTH_DEV_SECRET, or the secret the server
// keeps in its data directory. It creates nothing: vetted token calls it,
// and a missing file means no server has run on that data directory yet.
func LoadDevSecret(cfg Config) (string, error) {
	if cfg.AuthDevSecret != "" {
		return cfg.AuthDevSecret, nil
	}
	path := filepath.Join(cfg.DataDir, DevSecretFile)
	secret, err := readSecret(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("no dev secret in %s: start vetted serve once with this VETTED_DATA_DIR, or set VETTED_AUTH_DEV_SECRET", path)
	}
	return secret, err
}

// devSecret returns the secret of the dev token verifier: the configured
// one, or one generated once and kept in the data directory. A server that
// others can reach (a listen address that is not loopback) or that shares
// its users with other servers (PostgreSQL) must be given it explicitly.
func devSecret(cfg Config) (secret, source string, err error) {
	if cfg.AuthDevSecret != "" {
		return cfg.AuthDevSecret, "VETTED_AUTH_DEV_SECRET", nil
	}
	store, err := cfg.store()
	if err != nil {
		return "", "", err
	}
	switch {
	case store == StorePostgres:
		return "", "", errors.New("dev tokens on PostgreSQL need VETTED_AUTH_DEV_SECRET set explicitly (or VETTED_AUTH_JWKS_URL for real sign-in)")
	case !loopback(cfg.HTTPAddr):
		return "", "", fmt.Errorf("dev tokens on the non-loopback address %s need VETTED_AUTH_DEV_SECRET set explicitly (or VETTED_AUTH_JWKS_URL for real sign-in)", cfg.HTTPAddr)
	}
	path := filepath.Join(cfg.DataDir, DevSecretFile)
	secret, err = keptSecret(path)
	return secret, path, err
}

// signingKey returns the HMAC key of mail links and blob URLs: the
// configured one; on SQLite one kept in the data directory, since the
// subscriptions and documents its links point to outlive the process; else
// one per process.
func signingKey(cfg Config) (string, error) {
	if cfg.SigningKey != "" {
		return cfg.SigningKey, nil
	}
	if store, _ := cfg.store(); store == StoreSQLite {
		return keptSecret(filepath.Join(cfg.DataDir, signingKeyFile))
	}
	return randomHex(32), nil
}

// loopback reports whether addr (host:port) listens on loopback only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// keptSecret returns the secret kept in path, making a random one the first
// time. The file is readable by its owner only (0600), and it is published
// whole: a process starting at the same moment reads the same secret.
func keptSecret(path string) (string, error) {
	secret, err := readSecret(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return secret, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("keep secret: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".secret-*")
	if err != nil {
		return "", fmt.Errorf("keep secret: %w", err)
	}
	defer os.Remove(tmp.Name())
	secret = randomHex(32)
	if _, err := tmp.WriteString(secret + "\n"); err != nil {
		_ = tmp.Close()
		return "", fmt.Errorf("keep secret: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("keep secret: %w", err)
	}
	// CreateTemp made the file 0600. Link publishes it under its name, or
	// fails if another process published one first: then that one is it.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("keep secret: %w", err)
	}
	return readSecret(path)
}

func readSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	secret := strings.TrimSpace(string(b))
	if len(secret) < auth.MinDevSecretLen {
		return "", fmt.Errorf("secret in %s: shorter than %d characters", path, auth.MinDevSecretLen)
	}
	return secret, nil
}
