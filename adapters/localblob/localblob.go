// Package localblob is the BlobStore of the embedded default: evidence files
// live on local disk under one directory, and the presigned URLs point at the
// app itself. Handler serves those URLs; the API mounts it at MountPath.
//
// A URL carries everything the handler needs in its query (key, expiry, and
// for uploads the content type and size cap) plus an HMAC over those fields
// made with signedlink.Signer.MAC, so the handler is stateless and a URL cannot
// be altered or reused after it expires. The handler enforces what S3 would:
// signature, expiry, the exact Content-Type that was signed, and the size
// cap, streaming the body to a temporary file that is linked into place only
// once it is complete and within the cap. Objects are written once: the link
// fails when the key holds an object (or another upload of it is being put
// in place), and the upload is refused with 409, leaving the object as it
// was, much as S3 refuses a conditional create (If-None-Match: *) with 412.
package localblob

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/ports"
)

// MountPath is where the API must mount Handler, relative to the public base
// URL given to New. The handler reads only the query, so it works both with
// and without http.StripPrefix.
const MountPath = "/blobs/"

// MaxKeyLen bounds object keys, as S3 does.
const MaxKeyLen = 1024

// Query parameters of a signed URL.
const (
	qKey     = "key"
	qOp      = "op"
	qExpires = "exp"
	qType    = "ct"
	qMax     = "max"
	qName    = "fn"
	qSig     = "sig"
)

const (
	opPut = "put"
	opGet = "get"
)

// Layout under the root directory: objects hold file content at their key,
// meta holds the content type given at upload, tmp holds uploads in flight.
const (
	objectsDir = "objects"
	metaDir    = "meta"
	tmpDir     = "tmp"
)

// Store keeps blobs on disk. It is safe for concurrent use.
type Store struct {
	root   *os.Root
	base   string // public base URL without trailing slash
	signer *signedlink.Signer
	clock  ports.Clock
}

var _ ports.BlobStore = (*Store)(nil)

// New opens (creating if needed) the directory dir and returns a store whose
// URLs start with publicBaseURL + MountPath. All file access goes through an
// os.Root confined to dir, on top of the key validation.
func New(dir, publicBaseURL string, signer *signedlink.Signer, clock ports.Clock) (*Store, error) {
	switch {
	case dir == "":
		return nil, errors.New("localblob: directory is required")
	case signer == nil:
		return nil, errors.New("localblob: signer is required")
	case clock == nil:
		return nil, errors.New("localblob: clock is required")
	}
	u, err := url.Parse(publicBaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("localblob: public base URL %q must be an absolute http(s) URL without query", publicBaseURL)
	}
	for _, d := range []string{dir, path.Join(dir, objectsDir), path.Join(dir, metaDir), path.Join(dir, tmpDir)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("localblob: %w", err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("localblob: %w", err)
	}
	return &Store{root: root, base: strings.TrimRight(publicBaseURL, "/"), signer: signer, clock: clock}, nil
}

// Close releases the directory handle.
func (s *Store) Close() error { return s.root.Close() }

// ValidateKey reports whether key is a safe relative object path: non-empty
// slash-separated segments, none of them "." or "..", no backslashes or
// control characters, valid UTF-8, at most MaxKeyLen bytes. Keys the core
// makes (accounts/<id>/assessments/<id>/<id>) always pass.
func ValidateKey(key string) error {
	if key == "" || len(key) > MaxKeyLen || !utf8.ValidString(key) {
		return core.Invalid("key", "must be 1 to %d bytes of UTF-8", MaxKeyLen)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return core.Invalid("key", "must not contain control characters or backslashes")
		}
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return core.Invalid("key", "must be a relative path without empty, '.' or '..' segments")
		}
	}
	return nil
}

// PresignPut returns a PUT URL for key that accepts exactly contentType and
// at most maxSize bytes until ttl passes.
func (s *Store) PresignPut(_ context.Context, key, contentType string, maxSize int64, ttl time.Duration) (ports.PresignedRequest, error) {
	if err := ValidateKey(key); err != nil {
		return ports.PresignedRequest{}, err
	}
	if contentType == "" || hasCtl(contentType) {
		return ports.PresignedRequest{}, core.Invalid("content-type", "must be a non-empty header value")
	}
	if maxSize < 0 {
		return ports.PresignedRequest{}, core.Invalid("max-size", "must not be negative")
	}
	if ttl <= 0 {
		return ports.PresignedRequest{}, core.Invalid("ttl", "must be positive")
	}
	exp := s.clock.Now().Add(ttl).Truncate(time.Second)
	q := url.Values{
		qOp: {opPut}, qKey: {key}, qType: {contentType},
		qMax: {strconv.FormatInt(maxSize, 10)}, qExpires: {strconv.FormatInt(exp.Unix(), 10)},
	}
	q.Set(qSig, s.sign(q))
	return ports.PresignedRequest{
		URL:       s.base + MountPath + "?" + q.Encode(),
		Method:    http.MethodPut,
		Headers:   map[string]string{"Content-Type": contentType},
		ExpiresAt: exp,
	}, nil
}

// PresignGet returns a GET URL that downloads key as an attachment named
// fileName until ttl passes.
func (s *Store) PresignGet(_ context.Context, key, fileName string, ttl time.Duration) (ports.PresignedRequest, error) {
	if err := ValidateKey(key); err != nil {
		return ports.PresignedRequest{}, err
	}
	if hasCtl(fileName) || !utf8.ValidString(fileName) {
		return ports.PresignedRequest{}, core.Invalid("file-name", "must not contain control characters")
	}
	if ttl <= 0 {
		return ports.PresignedRequest{}, core.Invalid("ttl", "must be positive")
	}
	exp := s.clock.Now().Add(ttl).Truncate(time.Second)
	q := url.Values{qOp: {opGet}, qKey: {key}, qName: {fileName}, qExpires: {strconv.FormatInt(exp.Unix(), 10)}}
	q.Set(qSig, s.sign(q))
	return ports.PresignedRequest{
		URL:       s.base + MountPath + "?" + q.Encode(),
		Method:    http.MethodGet,
		Headers:   map[string]string{},
		ExpiresAt: exp,
	}, nil
}

// Stat returns the size of the object at key, or an error wrapping
// core.ErrNotFound.
func (s *Store) Stat(_ context.Context, key string) (int64, error) {
	if err := ValidateKey(key); err != nil {
		return 0, err
	}
	fi, err := s.root.Stat(objectsDir + "/" + key)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || (err == nil && !fi.Mode().IsRegular()) {
		return 0, core.NotFound("blob %q", key)
	}
	if err != nil {
		return 0, fmt.Errorf("localblob: stat: %w", err)
	}
	return fi.Size(), nil
}

// Delete removes the objects; absent keys are not an error. Emptied
// directories are left in place: pruning them would race with uploads that
// are creating them.
func (s *Store) Delete(_ context.Context, keys ...string) error {
	for _, key := range keys {
		if err := ValidateKey(key); err != nil {
			return err
		}
		for _, p := range []string{objectsDir + "/" + key, metaDir + "/" + key} {
			if err := s.root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("localblob: delete %q: %w", key, err)
			}
		}
	}
	return nil
}

// Digest reads the object at key and returns its size and SHA-256, or an
// error wrapping core.ErrNotFound.
func (s *Store) Digest(_ context.Context, key string) (ports.BlobDigest, error) {
	if err := ValidateKey(key); err != nil {
		return ports.BlobDigest{}, err
	}
	f, err := s.root.Open(objectsDir + "/" + key)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return ports.BlobDigest{}, core.NotFound("blob %q", key)
	}
	if err != nil {
		return ports.BlobDigest{}, fmt.Errorf("localblob: open: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ports.BlobDigest{}, core.NotFound("blob %q", key)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return ports.BlobDigest{}, fmt.Errorf("localblob: read %q: %w", key, err)
	}
	return ports.BlobDigest{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Handler serves the presigned URLs: PUT uploads, GET and HEAD downloads.
// Refusals: 403 for a missing, tampered or expired signature and for a
// Content-Type other than the signed one (as S3 refuses a request that does
// not match its signature); 409 for an upload to a key that already holds an
// object (objects are written once); 413 for a body over the signed cap; 404
// for a download of a missing object; 405 for a method the URL was not
// signed for.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		q := r.URL.Query()
		if err := s.verify(q); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		switch op := q.Get(qOp); {
		case op == opPut && r.Method == http.MethodPut:
			s.put(w, r, q)
		case op == opGet && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			s.get(w, r, q)
		default:
			http.Error(w, "method not allowed for this URL", http.StatusMethodNotAllowed)
		}
	})
}

// verify checks the signature, then the expiry, then the key.
func (s *Store) verify(q url.Values) error {
	sig := q.Get(qSig)
	if sig == "" || !hmac.Equal([]byte(sig), []byte(s.sign(q))) {
		return errors.New("signature does not match")
	}
	exp, err := strconv.ParseInt(q.Get(qExpires), 10, 64)
	if err != nil || s.clock.Now().Unix() > exp {
		return errors.New("URL has expired")
	}
	return ValidateKey(q.Get(qKey))
}

// sign MACs the operation's fields in a fixed order, one per line; none of
// them may contain a newline (keys, types and names are checked for control
// characters), so distinct field sets give distinct texts.
func (s *Store) sign(q url.Values) string {
	fields := []string{"vetted-localblob-v1", q.Get(qOp), q.Get(qKey), q.Get(qExpires)}
	switch q.Get(qOp) {
	case opPut:
		fields = append(fields, q.Get(qType), q.Get(qMax))
	case opGet:
		fields = append(fields, q.Get(qName))
	}
	return s.signer.MAC(strings.Join(fields, "\n"))
}

func (s *Store) put(w http.ResponseWriter, r *http.Request, q url.Values) {
	key, ct := q.Get(qKey), q.Get(qType)
	maxSize, err := strconv.ParseInt(q.Get(qMax), 10, 64)
	if err != nil || maxSize < 0 {
		http.Error(w, "bad size cap", http.StatusForbidden)
		return
	}
	if got := r.Header.Get("Content-Type"); got != ct {
		http.Error(w, fmt.Sprintf("Content-Type %q does not match the signed %q", got, ct), http.StatusForbidden)
		return
	}
	if r.ContentLength > maxSize {
		http.Error(w, fmt.Sprintf("body of %d bytes exceeds the cap of %d", r.ContentLength, maxSize), http.StatusRequestEntityTooLarge)
		return
	}
	// Refuse early, before reading the body, when the key is taken; commit
	// checks again atomically.
	if _, err := s.root.Lstat(metaDir + "/" + key); err == nil {
		http.Error(w, errExists.Error(), http.StatusConflict)
		return
	}
	tmp, err := s.tempName()
	if err != nil {
		http.Error(w, "cannot store the file", http.StatusInternalServerError)
		return
	}
	defer func() { _ = s.root.Remove(tmp) }() // fails harmlessly once renamed
	switch err := s.writeLimited(tmp, r.Body, maxSize); {
	case errors.Is(err, errTooLarge):
		http.Error(w, fmt.Sprintf("body exceeds the cap of %d bytes", maxSize), http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "upload failed", http.StatusBadRequest)
		return
	}
	switch err := s.commit(key, ct, tmp); {
	case errors.Is(err, errExists):
		http.Error(w, err.Error(), http.StatusConflict)
		return
	case err != nil:
		http.Error(w, "cannot store the file", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

var (
	errTooLarge = errors.New("too large")
	errExists   = errors.New("an object was already uploaded with this URL's key; objects are written once")
)

// writeLimited copies at most max bytes of body into the new file tmp and
// fails with errTooLarge when body holds more.
func (s *Store) writeLimited(tmp string, body io.Reader, max int64) error {
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(body, max+1))
	if err == nil && n > max {
		err = errTooLarge
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// commit puts a finished upload in place, once: it links the content type
// to the key's metadata path, which fails if the path exists, so of two
// uploads of a key exactly one claims it (errExists for the other), then
// links the file to the key's object path. An object is never visible
// without its metadata, and neither is ever replaced.
func (s *Store) commit(key, contentType, tmp string) error {
	metaTmp, err := s.tempName()
	if err != nil {
		return err
	}
	defer func() { _ = s.root.Remove(metaTmp) }()
	if err := s.root.WriteFile(metaTmp, []byte(contentType), 0o600); err != nil {
		return err
	}
	for _, d := range []string{objectsDir, metaDir} {
		if err := s.root.MkdirAll(path.Dir(d+"/"+key), 0o700); err != nil {
			return err
		}
	}
	meta, obj := metaDir+"/"+key, objectsDir+"/"+key
	if err := s.root.Link(metaTmp, meta); errors.Is(err, fs.ErrExist) {
		return errExists
	} else if err != nil {
		return err
	}
	err = s.root.Link(tmp, obj)
	if errors.Is(err, fs.ErrExist) {
		return errExists // an object without metadata: left as it is
	}
	if err != nil {
		_ = s.root.Remove(meta) // release the claim so the URL may be retried
	}
	return err
}

func (s *Store) tempName() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return tmpDir + "/" + hex.EncodeToString(b[:]), nil
}

func (s *Store) get(w http.ResponseWriter, r *http.Request, q url.Values) {
	key := q.Get(qKey)
	f, err := s.root.Open(objectsDir + "/" + key)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	ct := "application/octet-stream"
	if b, err := s.root.ReadFile(metaDir + "/" + key); err == nil && len(b) > 0 {
		ct = string(b)
	}
	w.Header().Set("Content-Type", ct)
	name := q.Get(qName)
	if name == "" {
		name = path.Base(key)
	}
	// FormatMediaType writes filename*=utf-8''... for non-ASCII names.
	cd := mime.FormatMediaType("attachment", map[string]string{"filename": name})
	if cd == "" {
		cd = "attachment"
	}
	w.Header().Set("Content-Disposition", cd)
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

func hasCtl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}
