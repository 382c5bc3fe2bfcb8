// Package s3 is the production BlobStore: evidence files live in any
// S3-compatible object store (AWS S3, MinIO, versitygw, R2), and clients move
// the bytes directly through presigned requests made with aws-sdk-go-v2.
//
// Uploads are SigV4-presigned PUTs that sign Content-Type and
// If-None-Match: * into the URL, so a client must send both exactly: the
// server refuses another Content-Type or a missing If-None-Match (403,
// SignatureDoesNotMatch), and, because the PUT is a conditional create, an
// upload to a key that already holds an object (412 PreconditionFailed),
// leaving the object as it was. An upload URL so stores exactly one object.
// AWS S3 and versitygw v1.8.0 (see the tests) honour If-None-Match on PUT;
// neither honours it on a POST-policy form upload, which is why this store
// no longer uses one. The price is the size cap: a presigned PUT cannot bind
// one, so the server accepts up to its own limit (5 GiB on AWS) and the core
// enforces the cap when it first sees the object (Stat, then delete if over
// it; the record stays pending). docs/DECISIONS.md weighs the two.
//
// Downloads are presigned GETs with response-content-disposition set to an
// attachment of the document's file name.
//
// Presigned URLs are signed for the host that clients will send (SigV4
// signs Host), so they name PublicEndpoint when it is set: the address at
// which browsers reach the store, when the service reaches it by another
// (a container network's name such as http://s3:9000, published to the
// host as http://localhost:9000). The service's own calls use Endpoint.
package s3

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports"
)

// Config locates the bucket; it mirrors the VETTED_S3_* variables.
type Config struct {
	// Endpoint is the base URL of the S3 API, e.g. http://127.0.0.1:7070 or
	// https://s3.eu-central-1.amazonaws.com. Empty means AWS for Region.
	Endpoint string
	// PublicEndpoint, when set, is the base URL presigned uploads and
	// downloads name instead of Endpoint: where clients reach the same
	// store (see the package comment).
	PublicEndpoint string
	// Region is the signing region; empty means us-east-1.
	Region string
	// Bucket holds the evidence files.
	Bucket string
	// AccessKey and SecretKey are static credentials.
	AccessKey, SecretKey string
	// PathStyle addresses the bucket as Endpoint/Bucket instead of
	// Bucket.Endpoint; MinIO and versitygw need it unless they are set up
	// with a virtual-host domain.
	PathStyle bool
	// CreateBucket makes New create the bucket when it does not exist.
	CreateBucket bool
}

// Store is an S3-backed ports.BlobStore. It is safe for concurrent use.
type Store struct {
	client  *awss3.Client
	presign *awss3.PresignClient
	bucket  string
}

var _ ports.BlobStore = (*Store)(nil)

// MaxKeyLen is S3's limit on object keys.
const MaxKeyLen = 1024

// New checks cfg, builds the client and, when cfg.CreateBucket is set,
// creates the bucket if it is missing. It does not otherwise contact the
// server; call Ping for a readiness check.
func New(ctx context.Context, cfg Config) (*Store, error) {
	switch {
	case cfg.Bucket == "":
		return nil, errors.New("s3: bucket is required")
	case cfg.AccessKey == "" || cfg.SecretKey == "":
		return nil, errors.New("s3: access key and secret key are required")
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	opts := awss3.Options{
		Region:       cfg.Region,
		Credentials:  credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, ""),
		UsePathStyle: cfg.PathStyle,
		// Only send checksums an operation requires: S3-compatible stores do
		// not all understand the SDK's default CRC trailers.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	}
	for _, ep := range []string{cfg.Endpoint, cfg.PublicEndpoint} {
		if u, err := url.Parse(ep); ep != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			return nil, fmt.Errorf("s3: endpoint %q must be an absolute http(s) URL", ep)
		}
	}
	if cfg.Endpoint != "" {
		opts.BaseEndpoint = aws.String(cfg.Endpoint)
	}
	client := awss3.New(opts)
	signer := client
	if cfg.PublicEndpoint != "" {
		signer = awss3.New(opts, func(o *awss3.Options) { o.BaseEndpoint = aws.String(cfg.PublicEndpoint) })
	}
	s := &Store{client: client, presign: awss3.NewPresignClient(signer), bucket: cfg.Bucket}
	if cfg.CreateBucket {
		if err := s.ensureBucket(ctx, cfg.Region); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Store) ensureBucket(ctx context.Context, region string) error {
	_, err := s.client.HeadBucket(ctx, &awss3.HeadBucketInput{Bucket: &s.bucket})
	if err == nil {
		return nil
	}
	if !isNotFound(err) {
		return fmt.Errorf("s3: head bucket %q: %w", s.bucket, err)
	}
	in := &awss3.CreateBucketInput{Bucket: &s.bucket}
	if region != "us-east-1" {
		in.CreateBucketConfiguration = &types.CreateBucketConfiguration{LocationConstraint: types.BucketLocationConstraint(region)}
	}
	_, err = s.client.CreateBucket(ctx, in)
	var owned *types.BucketAlreadyOwnedByYou
	if err != nil && !errors.As(err, &owned) {
		return fmt.Errorf("s3: create bucket %q: %w", s.bucket, err)
	}
	return nil
}

// Ping reports whether the bucket is reachable with these credentials.
func (s *Store) Ping(ctx context.Context) error {
	if _, err := s.client.HeadBucket(ctx, &awss3.HeadBucketInput{Bucket: &s.bucket}); err != nil {
		return fmt.Errorf("s3: head bucket %q: %w", s.bucket, err)
	}
	return nil
}

func validKey(key string) error {
	if key == "" || len(key) > MaxKeyLen || !utf8.ValidString(key) || hasCtl(key) {
		return core.Invalid("key", "must be 1 to %d bytes of UTF-8 without control characters", MaxKeyLen)
	}
	return nil
}

// PresignPut returns a presigned conditional PUT for key, bound to
// contentType, valid until ttl passes. maxSize is checked but cannot be
// bound into a presigned PUT; see the package comment.
func (s *Store) PresignPut(ctx context.Context, key, contentType string, maxSize int64, ttl time.Duration) (ports.PresignedRequest, error) {
	if err := validKey(key); err != nil {
		return ports.PresignedRequest{}, err
	}
	if contentType == "" || hasCtl(contentType) {
		return ports.PresignedRequest{}, core.Invalid("content-type", "must be a non-empty header value")
	}
	if maxSize < 0 {
		return ports.PresignedRequest{}, core.Invalid("max-size", "must not be negative")
	}
	if ttl < time.Second {
		return ports.PresignedRequest{}, core.Invalid("ttl", "must be at least one second")
	}
	start := time.Now()
	req, err := s.presign.PresignPutObject(ctx, &awss3.PutObjectInput{
		Bucket: &s.bucket, Key: &key, ContentType: &contentType, IfNoneMatch: aws.String("*"),
	}, awss3.WithPresignExpires(ttl))
	if err != nil {
		return ports.PresignedRequest{}, fmt.Errorf("s3: presign upload of %q: %w", key, err)
	}
	return ports.PresignedRequest{URL: req.URL, Method: req.Method, Headers: signedHeaders(req.SignedHeader),
		ExpiresAt: start.Add(ttl).UTC().Truncate(time.Second)}, nil
}

// signedHeaders are the headers a presigned request must carry, less Host,
// which the client sets from the URL.
func signedHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for k, vs := range h {
		if k != "Host" && len(vs) > 0 {
			out[k] = vs[0]
		}
	}
	return out
}

// PresignGet returns a SigV4-presigned GET that downloads key as an
// attachment named fileName until ttl passes.
func (s *Store) PresignGet(ctx context.Context, key, fileName string, ttl time.Duration) (ports.PresignedRequest, error) {
	if err := validKey(key); err != nil {
		return ports.PresignedRequest{}, err
	}
	if hasCtl(fileName) || !utf8.ValidString(fileName) {
		return ports.PresignedRequest{}, core.Invalid("file-name", "must not contain control characters")
	}
	if ttl < time.Second {
		return ports.PresignedRequest{}, core.Invalid("ttl", "must be at least one second")
	}
	in := &awss3.GetObjectInput{Bucket: &s.bucket, Key: &key}
	if fileName != "" {
		if cd := mime.FormatMediaType("attachment", map[string]string{"filename": fileName}); cd != "" {
			in.ResponseContentDisposition = &cd
		}
	}
	start := time.Now()
	req, err := s.presign.PresignGetObject(ctx, in, awss3.WithPresignExpires(ttl))
	if err != nil {
		return ports.PresignedRequest{}, fmt.Errorf("s3: presign download of %q: %w", key, err)
	}
	return ports.PresignedRequest{URL: req.URL, Method: req.Method, Headers: signedHeaders(req.SignedHeader),
		ExpiresAt: start.Add(ttl).UTC().Truncate(time.Second)}, nil
}

// Stat returns the object's size, or an error wrapping core.ErrNotFound.
func (s *Store) Stat(ctx context.Context, key string) (int64, error) {
	if err := validKey(key); err != nil {
		return 0, err
	}
	out, err := s.client.HeadObject(ctx, &awss3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if isNotFound(err) {
		return 0, core.NotFound("blob %q", key)
	}
	if err != nil {
		return 0, fmt.Errorf("s3: head %q: %w", key, err)
	}
	return aws.ToInt64(out.ContentLength), nil
}

// Digest reads the object and returns its size and SHA-256, or an error
// wrapping core.ErrNotFound. The bytes pass through the service once, when a
// document turns uploaded; evidence files are small (the cap is 25 MB).
func (s *Store) Digest(ctx context.Context, key string) (ports.BlobDigest, error) {
	if err := validKey(key); err != nil {
		return ports.BlobDigest{}, err
	}
	out, err := s.client.GetObject(ctx, &awss3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if isNotFound(err) {
		return ports.BlobDigest{}, core.NotFound("blob %q", key)
	}
	if err != nil {
		return ports.BlobDigest{}, fmt.Errorf("s3: get %q: %w", key, err)
	}
	defer out.Body.Close()
	h := sha256.New()
	n, err := io.Copy(h, out.Body)
	if err != nil {
		return ports.BlobDigest{}, fmt.Errorf("s3: read %q: %w", key, err)
	}
	return ports.BlobDigest{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// deleteBatch is S3's limit on keys per DeleteObjects call.
const deleteBatch = 1000

// Delete removes objects with DeleteObjects, 1000 keys per call; absent keys
// are not an error.
func (s *Store) Delete(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		if err := validKey(k); err != nil {
			return err
		}
	}
	for start := 0; start < len(keys); start += deleteBatch {
		batch := keys[start:min(start+deleteBatch, len(keys))]
		ids := make([]types.ObjectIdentifier, len(batch))
		for i := range batch {
			ids[i] = types.ObjectIdentifier{Key: &batch[i]}
		}
		out, err := s.client.DeleteObjects(ctx, &awss3.DeleteObjectsInput{
			Bucket: &s.bucket,
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return fmt.Errorf("s3: delete %d objects: %w", len(batch), err)
		}
		for _, e := range out.Errors {
			if aws.ToString(e.Code) == "NoSuchKey" {
				continue
			}
			return fmt.Errorf("s3: delete %q: %s: %s", aws.ToString(e.Key), aws.ToString(e.Code), aws.ToString(e.Message))
		}
	}
	return nil
}

// isNotFound recognises a missing bucket or object: HEAD answers a bare 404,
// which the SDK reports as types.NotFound or a generic API error.
func isNotFound(err error) bool {
	if err == nil {
		return false
	}
	var nf *types.NotFound
	var nsk *types.NoSuchKey
	var nsb *types.NoSuchBucket
	if errors.As(err, &nf) || errors.As(err, &nsk) || errors.As(err, &nsb) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NotFound", "NoSuchKey", "NoSuchBucket":
			return true
		}
	}
	var status interface{ HTTPStatusCode() int }
	return errors.As(err, &status) && status.HTTPStatusCode() == http.StatusNotFound
}

func hasCtl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}
