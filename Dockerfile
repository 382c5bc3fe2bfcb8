# syntax=docker/dockerfile:1
# Vetted: one static binary (serve, worker, migrate, ...) on distroless, as non-root.
#
#   make docker      # tags ghcr.io/vetted-dev/vetted:$(VERSION) and ghcr.io/vetted-dev/vetted:local (the first build takes minutes)
#   docker run --rm -p 127.0.0.1:8080:8080 -e VETTED_AUTH_DEV_SECRET=$(openssl rand -hex 32) -e VETTED_CONSOLE_DEV_SIGNIN=true ghcr.io/vetted-dev/vetted:local serve
#
# The image listens on :8080, which is not loopback: dev tokens there need
# their secret given (VETTED_AUTH_DEV_SECRET), or real sign-in
# (VETTED_AUTH_JWKS_URL), and the console's dev sign-in form (any e-mail,
# platform admin or not) needs VETTED_CONSOLE_DEV_SIGNIN=true; the example
# publishes the port on 127.0.0.1 only, since that form signs in whoever
# reaches it. Open http://localhost:8080/ for the console; serve also
# prints an admin token for the API. Data lives in /tmp/vetted (SQLite) and
# goes with the container. apps/cmd/vetted's tests start the example above.

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Module files first: the download layer is cached until they change.
COPY go.mod go.sum ./
COPY adapters/go.mod adapters/go.sum adapters/
COPY apps/go.mod apps/go.sum apps/
ENV GOWORK=off CGO_ENABLED=0 GOFLAGS=-trimpath
RUN --mount=type=cache,target=/root/go/pkg/mod cd apps && go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=
RUN --mount=type=cache,target=/root/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    cd apps && go build -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/vetted ./cmd/vetted && \
    /out/vetted version

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/vetted /usr/local/bin/vetted
# 65532 is distroless's "nonroot"; numeric so that runAsNonRoot can verify it.
USER 65532:65532
ENV VETTED_HTTP_ADDR=:8080 \
    VETTED_DATA_DIR=/tmp/vetted \
    VETTED_LOG_FORMAT=json
EXPOSE 8080 9090
ENTRYPOINT ["/usr/local/bin/vetted"]
CMD ["serve"]
