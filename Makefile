# Vetted: one Makefile for every module of the workspace.
MODULES := . ./adapters ./apps ./examples
GO ?= go
TESTFLAGS ?= -race -count=1

.PHONY: console console-check console-test run test test-clock-sweep test-short lint openapi openapi-check openapi-clients fuzz bench migrate tidy build worker deploy-check docker image-name

## run: build bin/vetted and start the API on the embedded default (SQLite in
## .data/, in-process jobs). The binary replaces the shell (exec), so the
## server is make's own child: stopping make, or the server by its PID, stops
## it (no `go run` parent left behind). Needs Go only (the console is prebuilt).
run: build
	exec ./bin/vetted serve

## worker: build bin/vetted and start the asynq worker (needs VETTED_REDIS_URL)
worker: build
	exec ./bin/vetted worker

## build: bin/vetted, stamped with the git version and commit (vetted version)
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
build:
	mkdir -p bin && $(GO) build -ldflags "-X main.version=$(VERSION) -X main.commit=$(COMMIT)" -o bin/vetted ./apps/cmd/vetted

## docker: the container image (distroless, non-root), tagged $(IMAGE):$(VERSION)
## and $(IMAGE):local. deploy/k8s names $(IMAGE) (set the release's tag with
## kustomize: cd deploy/k8s && kustomize edit set image $(IMAGE)=$(IMAGE):<version>);
## deploy/compose.yaml runs $(IMAGE):local. deploy/k8s/validate.sh checks they agree.
IMAGE ?= ghcr.io/vetted-dev/vetted
docker:
	docker build -t $(IMAGE):$(VERSION) -t $(IMAGE):local --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) .

## image-name: print the image repository that make docker tags (for scripts)
image-name:
	@echo $(IMAGE)

## deploy-check: validate deploy/k8s offline (kubeconform) and deploy/compose.yaml (compose-go, and
## docker compose config too when Docker has compose)
deploy-check:
	bash deploy/k8s/validate.sh
	@if docker compose version >/dev/null 2>&1; then docker compose -f deploy/compose.yaml config --quiet; fi

## test: every module's tests, with the race detector; the HTTP API suite
## (on the memory store there) runs again on SQLite, and on PostgreSQL when
## VETTED_TEST_DATABASE_URL is set. It ends with one line naming the suites
## skipped for want of a server (recorded by internal/testenv).
test:
	@export VETTED_TEST_SKIPLOG=$$(mktemp); status=0; \
	for m in $(MODULES); do echo "== $$m"; (cd $$m && $(GO) test $(TESTFLAGS) ./...) || status=1; done; \
	echo "== ./apps/api on SQLite"; (cd apps && VETTED_TEST_STORE=sqlite $(GO) test $(TESTFLAGS) ./api/...) || status=1; \
	if [ -n "$$VETTED_TEST_DATABASE_URL" ]; then echo "== ./apps/api on PostgreSQL"; \
		(cd apps && VETTED_TEST_STORE=postgres $(GO) test $(TESTFLAGS) ./api/...) || status=1; fi; \
	echo "== the web console (Vitest, Playwright in chromium)"; bash .ci/console.sh test || status=1; \
	$(SUMMARIZE_SKIPS); rm -f "$$VETTED_TEST_SKIPLOG"; exit $$status

## test-clock-sweep: every module's Go tests (without -race) with the test
## clock a year ahead and a year back (VETTED_TEST_CLOCK_SHIFT): a fixture or
## code under test that reads the real clock beside the test's is a year off,
## and its test fails.
test-clock-sweep:
	@status=0; for shift in 8760h -8760h; do for m in $(MODULES); do \
		echo "== $$m, the test clock shifted $$shift"; \
		(cd $$m && VETTED_TEST_CLOCK_SHIFT=$$shift $(GO) test -count=1 ./...) || status=1; done; done; exit $$status

# SUMMARIZE_SKIPS prints the one line: each suite skipped, how many tests,
# and the variable that would have named its server. A suite's name may hold
# spaces ("Console in Chromium"): only the count uniq -c puts first is cut
# off the line, the rest is split on "|".
SUMMARIZE_SKIPS = cut -d'|' -f1,2 "$$VETTED_TEST_SKIPLOG" | sort | uniq -c | \
	awk '{ n = $$1; sub(/^ *[0-9]+ /, ""); split($$0, a, "|"); \
		s = s (NR > 1 ? ", " : "") a[1] " (" n (n == 1 ? " test, " : " tests, ") a[2] " unset)" } \
	END { print NR ? "== skipped for want of a server: " s "; bash .ci/run provides them all" : "== no suite skipped" }'

## console: rebuild the web console (apps/console/dist) and its API types from openapi.yaml (needs Node)
console:
	bash .ci/console.sh build

## console-check: fail when the committed console (built assets or API types) is stale
console-check:
	bash .ci/console.sh check

## console-test: the console's Vitest and Playwright suites (Node and Debian's chromium)
console-test:
	bash .ci/console.sh test

## lint: gofmt, go vet, staticcheck when installed
lint:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard -- '*.go')); if [ -n "$$out" ]; then echo "gofmt:"; echo "$$out"; exit 1; fi
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) vet ./...); done
	@if command -v staticcheck >/dev/null; then for m in $(MODULES); do (cd $$m && staticcheck ./...); done; fi

## openapi: regenerate openapi/openapi.yaml from the huma app
openapi:
	$(GO) run ./apps/cmd/vetted openapi > openapi/openapi.yaml

## openapi-check: fail when openapi/openapi.yaml is stale
openapi-check:
	@$(GO) run ./apps/cmd/vetted openapi > /tmp/vetted-openapi.yaml && diff -u openapi/openapi.yaml /tmp/vetted-openapi.yaml

## openapi-clients: lint openapi.yaml (Redocly) and check that generated Go and TypeScript clients compile
openapi-clients:
	bash .ci/openapi-clients.sh

## fuzz: run every fuzz target for FUZZTIME (default 10s); COLLECT=1 keeps new corpus entries
fuzz:
	bash .ci/fuzz.sh

## bench: Go benchmarks of every module
bench:
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) test -run '^$$' -bench . -benchmem ./...); done

## migrate: apply PostgreSQL migrations (VETTED_DATABASE_URL)
migrate:
	$(GO) run ./apps/cmd/vetted migrate

tidy:
	@set -e; for m in $(MODULES); do (cd $$m && $(GO) mod tidy); done
