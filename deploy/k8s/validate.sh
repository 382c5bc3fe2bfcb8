#!/usr/bin/env bash
# Validates deploy/compose.yaml with compose-go (deploy/composecheck, as
# docker compose config would) and the Kubernetes manifests offline with
# kubeconform (go run, pinned)
# against the strict schemas in deploy/k8s/schemas, which schemagen derives
# from the pinned k8s.io/api Go types (no schema download: CI reaches only
# package registries). Also proves the check has teeth: every document of
# testdata/invalid.yaml must be rejected, and the schemas must match what
# schemagen generates today.
set -euo pipefail
cd "$(dirname "$0")"
KUBECONFORM=github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0
export GOWORK=off
kc() { go run "$KUBECONFORM" -strict -summary -schema-location 'schemas/{{.ResourceKind}}{{.KindSuffix}}.json' "$@"; }

echo "k8s: schemas up to date with k8s.io/api"
(cd schemagen && go run . -out ../schemas -check)

echo "k8s: manifests"
out=$(kc -skip Kustomization ./*.yaml migrate/*.yaml) || { echo "$out"; exit 1; }
echo "$out"
case "$out" in *"Invalid: 0, Errors: 0"*) ;; *) echo "k8s: manifests are not valid"; exit 1 ;; esac

echo "k8s: known-bad manifests are rejected"
want=$(grep -c '^kind:' testdata/invalid.yaml)
out=$(kc testdata/invalid.yaml 2>&1 || true)
case "$out" in
*"Valid: 0, Invalid: $want, Errors: 0"*) echo "rejected all $want" ;;
*) echo "$out"; echo "k8s: kubeconform did not reject all $want known-bad documents"; exit 1 ;;
esac

# What the schemas cannot say: the rules of a safe rollout.
fail() { echo "k8s: $*"; exit 1; }

echo "k8s: one image name: make docker's, compose's and every manifest's"
image=$(make -s -C ../.. image-name)
[ -n "$image" ] || fail "make image-name printed nothing"
images=$(grep -h '^ *image:' ./*.yaml migrate/*.yaml | awk '{print $2}' | sort -u)
[ "$images" = "$image" ] || fail "manifests name image(s) '$images', want '$image' untagged (the tag is set in kustomization.yaml)"
grep -q "^  - name: $image\$" kustomization.yaml || fail "kustomization.yaml does not set the tag of $image (images:)"
tag=$(grep -A1 "^  - name: $image\$" kustomization.yaml | awk '/newTag:/ {print $2}')
[ -n "$tag" ] || fail "kustomization.yaml sets no newTag for $image"
grep -q "^  image: $image:local\$" ../compose.yaml || fail "deploy/compose.yaml does not run $image:local (what make docker tags)"
echo "$image:$tag everywhere"

echo "k8s: rolling updates drop no request"
grep -q '^ *preStop:' api-deployment.yaml || fail "the API Deployment has no preStop delay"
grep -A3 '^ *preStop:' api-deployment.yaml | grep -q 'seconds: [1-9]' || fail "the API's preStop does not wait"
grep -q 'path: /readyz' api-deployment.yaml || fail "the API's readiness probe is not /readyz (which checks the schema version)"
grep -q 'maxUnavailable: 0' api-deployment.yaml || fail "the API rollout may take pods away before new ones are ready"

echo "k8s: the admin listener (metrics, pprof) is not published on every interface by compose"
grep -q '"127.0.0.1:9090:9090"' ../compose.yaml || fail "deploy/compose.yaml publishes the admin port beyond 127.0.0.1"
grep -Eq '^ *- "(0.0.0.0:)?9090:9090"' ../compose.yaml && fail "deploy/compose.yaml publishes the admin port on all interfaces"

echo "compose: the file is valid (compose-go, the loader of docker compose, without Docker)"
(cd ../composecheck && go run . ../compose.yaml)

echo "compose: every image is a release (no latest, no untagged image but make docker's :local)"
bad=$(grep -E '^ *image:' ../compose.yaml | awk '{print $2}' | grep -v "^$image:local\$" | grep -Ev ':[^:/]+$' || true)
bad="$bad$(grep -E '^ *image:' ../compose.yaml | awk '{print $2}' | grep -E ':latest$' || true)"
[ -z "$bad" ] || fail "deploy/compose.yaml runs images without a release tag: $bad"

echo "compose: the console's dev sign-in only on ports published to 127.0.0.1"
if grep -q 'VETTED_CONSOLE_DEV_SIGNIN: "true"' ../compose.yaml; then
	open=$(grep -E '^ *- "[0-9]' ../compose.yaml | grep -v '"127\.0\.0\.1:' || true)
	[ -z "$open" ] || fail "deploy/compose.yaml offers the dev sign-in (tokens for anyone) and publishes ports on every interface: $open"
fi
grep -q '^  VETTED_S3_PUBLIC_ENDPOINT: "http://localhost:9000"' ../compose.yaml && grep -q '"127.0.0.1:9000:9000"' ../compose.yaml ||
	fail "deploy/compose.yaml does not publish MinIO's S3 port as the address upload URLs name (VETTED_S3_PUBLIC_ENDPOINT)"

echo "k8s: the ConfigMap signs the console in with the provider and client the API accepts"
cm() { awk -v k="$1:" '$1 == k { sub(/^ *[^:]+: */, ""); gsub(/"/, ""); print }' configmap.yaml; }
for k in VETTED_AUTH_JWKS_URL VETTED_AUTH_ISSUER VETTED_AUTH_AUDIENCE VETTED_OIDC_ISSUER VETTED_OIDC_CLIENT_ID; do
	[ -n "$(cm $k)" ] || fail "configmap.yaml does not set $k (the console has no sign-in without VETTED_OIDC_ISSUER and VETTED_OIDC_CLIENT_ID)"
done
[ "$(cm VETTED_OIDC_ISSUER)" = "$(cm VETTED_AUTH_ISSUER)" ] || fail "VETTED_OIDC_ISSUER is not VETTED_AUTH_ISSUER: the API would refuse the console's tokens"
[ "$(cm VETTED_OIDC_CLIENT_ID)" = "$(cm VETTED_AUTH_AUDIENCE)" ] || fail "VETTED_OIDC_CLIENT_ID is not VETTED_AUTH_AUDIENCE: the API would refuse the console's tokens"

echo "k8s: disruption budgets"
grep -q '^  - pdb.yaml$' kustomization.yaml || fail "pdb.yaml is not in kustomization.yaml"
for c in api worker; do
	awk -v RS='---' '/kind: PodDisruptionBudget/ && /component: '"$c"'/' pdb.yaml | grep -q . || fail "no PodDisruptionBudget for the $c pods"
done

echo "k8s: the migrate Job can run again with a new image"
grep -q '^  - migrate$' kustomization.yaml || fail "kustomization.yaml does not include migrate/"
grep -q "^nameSuffix: -$tag\$" migrate/kustomization.yaml || fail "the migrate Job's name does not end with -$tag (the image tag): the next release's Job would be refused as a change to this one"
awk '/^resources:/ {f=1; next} /^[a-z]/ {f=0} f' kustomization.yaml | grep -q 'job' && fail "a Job is listed directly in kustomization.yaml: it belongs to migrate/, named by release"

if command -v kubectl >/dev/null 2>&1; then
	echo "k8s: kustomization renders"
	rendered=$(kubectl kustomize .)
	echo "$rendered" | grep -q "^  name: vetted-migrate-$tag\$" || fail "kustomize does not name the migrate Job vetted-migrate-$tag"
	[ "$(echo "$rendered" | grep -c "image: $image:$tag\$")" = 3 ] || fail "kustomize does not give every container $image:$tag"
fi
