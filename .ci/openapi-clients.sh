#!/usr/bin/env bash
# Checks that openapi/openapi.yaml is a document clients can use:
#   1. Redocly lint finds no error (warnings are listed, not fatal);
#   2. the Go client generated with oapi-codegen (examples/vettedclient) is
#      up to date with the document and compiles;
#   3. the TypeScript types generated with openapi-typescript compile under
#      `tsc --strict`, together with a file that uses them.
# Node tools are installed once into $VETTED_TOOLS_DIR (default
# ~/.cache/vetted-tools), pinned; nothing is written into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${VETTED_TOOLS_DIR:-$HOME/.cache/vetted-tools}
REDOCLY=2.77.0 OPENAPI_TS=7.13.0 TYPESCRIPT=5.9.3
say() { printf 'openapi-clients: %s\n' "$*" >&2; }

if [ ! -x "$tools/node_modules/.bin/redocly" ] || [ ! -x "$tools/node_modules/.bin/openapi-typescript" ] || [ ! -x "$tools/node_modules/.bin/tsc" ] ||
	! grep -q "\"version\": \"$REDOCLY\"" "$tools/node_modules/@redocly/cli/package.json" 2>/dev/null; then
	say "installing @redocly/cli@$REDOCLY openapi-typescript@$OPENAPI_TS typescript@$TYPESCRIPT into $tools"
	mkdir -p "$tools"
	[ -f "$tools/package.json" ] || printf '{"private":true}\n' >"$tools/package.json"
	npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
		"@redocly/cli@$REDOCLY" "openapi-typescript@$OPENAPI_TS" "typescript@$TYPESCRIPT" >&2
fi
bin=$tools/node_modules/.bin

say "redocly lint"
"$bin/redocly" lint openapi/openapi.yaml --format=summary

say "Go client (oapi-codegen) is up to date and compiles"
(cd examples && go generate ./vettedclient && go build ./vettedclient ./apiclient)
if ! git diff --quiet -- examples/vettedclient; then
	git --no-pager diff --stat -- examples/vettedclient >&2
	say "examples/vettedclient is stale: run 'go generate ./vettedclient' in examples/ and commit it"
	exit 1
fi

say "TypeScript types (openapi-typescript) compile"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/openapi-typescript" openapi/openapi.yaml -o "$work/vetted.d.ts" >&2
cat >"$work/use.ts" <<'TS'
import type { components, paths } from "./vetted";
type Metrics = components["schemas"]["DashboardMetricsJSON"];
type Saved = paths["/vendor-lists"]["post"]["responses"]["200"]["content"]["application/json"];
type Problem = components["schemas"]["Problem"];
const m: Metrics = { activeAssessments: 1, totalVendors: 2, followedVendors: 1, reviewsDueSoon: 0, reviewsOverdue: 1 };
const p: Problem = { status: 422, detail: "body.csv", errors: [{ location: "body.csv", row: 2, column: "vendor_name", message: "must not be empty" }] };
function added(s: Saved): number { return "added" in s ? s.added.length : s.rows_processed; }
export { m, p, added };
TS
printf '{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2022","module":"es2022","moduleResolution":"bundler","skipLibCheck":false},"files":["vetted.d.ts","use.ts"]}\n' >"$work/tsconfig.json"
"$bin/tsc" -p "$work"
say "ok"
