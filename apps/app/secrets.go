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
// The memory store keeps its secret in the serving process only.
func LoadDevSecret(cfg Config) (string, error) {
	if cfg.AuthDevSecret != "" {
		return cfg.AuthDevSecret, nil
	}
	if store, _ := cfg.store(); store == StoreMemory {
		return "", errors.New("the memory store keeps its dev secret in the serving process only: use the VETTED_AUTH_DEV_SECRET that vetted serve printed, or set one for both")
	}
	path := filepath.Join(cfg.DataDir, DevSecretFile)
	secret, err := readSecret(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("no dev secret in %s: start vetted serve once with this VETTED_DATA_DIR, or set VETTED_AUTH_DEV_SECRET", path)
	}
	return secret, err
}

// devSecret returns the secret of the dev token verifier and where it
// came from: the configured one; on the memory store one made for this
// process (it writes nothing to disk); else one generated once and kept in
// the data directory. devSecretRule says where it must be configured.
func devSecret(cfg Config) (secret, source string, err error) {
	if cfg.AuthDevSecret != "" {
		return cfg.AuthDevSecret, "VETTED_AUTH_DEV_SECRET", nil
	}
	if err := cfg.devSecretRule(); err != nil {
		return "", "", err
	}
	if store, _ := cfg.store(); store == StoreMemory {
		return randomHex(32), "made for this process (memory store)", nil
	}
	source = cfg.devSecretOrigin()
	secret, err = keptSecret(filepath.Join(cfg.DataDir, DevSecretFile))
	return secret, source, err
}

// devSecretOrigin says where the dev secret of a server started with cfg
// (and no VETTED_AUTH_DEV_SECRET) comes from, as it is before the start:
// a warning that calls a reused secret "generated" misleads an operator
// who wonders whether the old tokens still work.
func (c Config) devSecretOrigin() string {
	if store, _ := c.store(); store == StoreMemory {
		return "with a secret made for this process only (the memory store writes nothing): its tokens stop working when it stops"
	}
	path := filepath.Join(c.DataDir, DevSecretFile)
	if _, err := os.Stat(path); err == nil {
		return "with the secret kept in " + path + " since the first start (tokens minted before still work)"
	}
	return "with a secret generated now and kept in " + path
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
