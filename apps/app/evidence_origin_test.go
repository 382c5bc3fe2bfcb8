package app

import "testing"

// TestEvidenceOrigin: the console may call the origin presigned URLs name:
// the public endpoint when set, with the bucket in the host when
// addressing is virtual-hosted (AWS S3 by default), never a path.
func TestEvidenceOrigin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{S3Endpoint: "http://s3:9000", S3PathStyle: true}, "http://s3:9000"},
		{Config{S3Endpoint: "http://s3:9000", S3PublicEndpoint: "http://localhost:9000/", S3PathStyle: true}, "http://localhost:9000"},
		{Config{S3Endpoint: "https://s3.us-east-1.amazonaws.com", S3Bucket: "vetted-evidence"}, "https://vetted-evidence.s3.us-east-1.amazonaws.com"},
	} {
		if got := evidenceOrigin(tt.cfg); got != tt.want {
			t.Errorf("evidenceOrigin(%+v) = %q, want %q", tt.cfg, got, tt.want)
		}
	}
}
