# syntax=docker/dockerfile:1
# Vetted: one static binary (serve, worker, migrate, ...) on distroless, as non-root.
#
#   docker build -t vetted --build-arg VERSION=$(git describe --always) --build-arg COMMIT=$(git rev-parse HEAD) .
#   docker run --rm -p 8080:8080 -e VETTED_HTTP_ADDR=:8080 vetted serve

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
