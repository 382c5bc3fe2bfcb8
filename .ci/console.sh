#!/usr/bin/env bash
# The web console's build and tests (apps/console/ui, Node).
#
#   bash .ci/console.sh build   npm ci, regenerate the API types from
#                               openapi/openapi.yaml, build into apps/console/dist
#   bash .ci/console.sh check   build, then fail when the committed types or
#                               built assets differ from what the sources give
#   bash .ci/console.sh test    Vitest, then Playwright in Debian's chromium
#                               against bin/vetted on the embedded default
#
# test runs only where Node and chromium are installed; elsewhere it says so,
# records the skip for make test's closing line (VETTED_TEST_SKIPLOG), and
# under CI=true fails instead. Screenshots, the axe report and the timing of
# the 500-vendor list go to $VETTED_E2E_OUT (a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
ui=apps/console/ui
say() { printf 'console: %s\n' "$*" >&2; }

install() {
	if [ ! -d "$ui/node_modules" ] || [ "$ui/package-lock.json" -nt "$ui/node_modules/.package-lock.json" ]; then
		say "npm ci"
		(cd "$ui" && npm ci --no-audit --no-fund --loglevel=error >&2)
	fi
}

build() {
	install
	(cd "$ui" && npm run --silent gen >&2 && npm run --silent build >&2)
}

case "${1:-}" in
build) build ;;
check)
	build
	stale=$(git status --porcelain -- apps/console/dist "$ui/src/api/schema.d.ts")
	if [ -n "$stale" ]; then
		echo "$stale" >&2
		say "the committed console is stale: run 'make console' and commit apps/console"
		exit 1
	fi
	say "built assets and API types are up to date"
	;;
test)
	chromium=${CHROMIUM:-/usr/bin/chromium}
	if ! command -v node >/dev/null 2>&1 || [ ! -x "$chromium" ]; then
		why="node or chromium ($chromium) not installed"
		if [ "${CI:-}" = true ]; then
			say "CI=true: $why"
			exit 1
		fi
		[ -n "${VETTED_TEST_SKIPLOG:-}" ] && echo "Console in Chromium|CHROMIUM|playwright" >>"$VETTED_TEST_SKIPLOG"
		say "skipped: $why"
		exit 0
	fi
	install
	bin=${VETTED_BIN:-$PWD/bin/vetted}
	if [ ! -x "$bin" ] || [ -n "$(find apps core adapters ports -newer "$bin" -name '*.go' -print -quit)" ] || [ apps/console/dist/index.html -nt "$bin" ]; then
		say "building $bin"
		mkdir -p "$(dirname "$bin")"
		(cd apps && go build -o "$bin" ./cmd/vetted)
	fi
	out=${VETTED_E2E_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/vetted-console-e2e.XXXXXX")}
	say "building the OpenID provider of the sign-in test (zitadel/oidc's example)"
	(cd "$ui" && GOWORK=off go build -o "$out/op" ./e2e/op)
	say "artifacts (screenshots, axe, timing) in $out"
	(cd "$ui" && npx vitest run)
	# Three loopback ports for the servers, below the kernel's ephemeral range
	# (outgoing connections never take them) and free when picked: a random
	# port in that range was once already bound and the server did not start.
	read -r VETTED_E2E_PORT VETTED_E2E_OIDC_PORT VETTED_E2E_OP_PORT < <(node "$ui/e2e/freeports.mjs" 3)
	export VETTED_E2E_PORT VETTED_E2E_OIDC_PORT VETTED_E2E_OP_PORT
	(cd "$ui" && VETTED_BIN="$bin" VETTED_OP="$out/op" VETTED_E2E_OUT="$out" CHROMIUM="$chromium" npx playwright test)
	say "axe: $(grep -c ': 0 violations\|(0 serious or critical)' "$out/axe.txt") pages with no serious or critical violation of $(grep -c 'rules passed' "$out/axe.txt")"
	cat "$out/timing.txt" >&2
	;;
*)
	echo "usage: bash .ci/console.sh build|check|test" >&2
	exit 2
	;;
esac
