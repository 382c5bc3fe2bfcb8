#!/usr/bin/env bash
# Validates the Kubernetes manifests offline with kubeconform (go run, pinned)
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
out=$(kc -skip Kustomization ./*.yaml) || { echo "$out"; exit 1; }
echo "$out"
case "$out" in *"Invalid: 0, Errors: 0"*) ;; *) echo "k8s: manifests are not valid"; exit 1 ;; esac

echo "k8s: known-bad manifests are rejected"
want=$(grep -c '^kind:' testdata/invalid.yaml)
out=$(kc testdata/invalid.yaml 2>&1 || true)
case "$out" in
*"Valid: 0, Invalid: $want, Errors: 0"*) echo "rejected all $want" ;;
*) echo "$out"; echo "k8s: kubeconform did not reject all $want known-bad documents"; exit 1 ;;
esac

if command -v kubectl >/dev/null 2>&1; then
	echo "k8s: kustomization renders"
	kubectl kustomize . >/dev/null
fi
