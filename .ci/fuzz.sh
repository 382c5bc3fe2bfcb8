#!/usr/bin/env bash
# Runs every fuzz target for FUZZTIME (default 10s) each. The committed
# corpora (testdata/fuzz/<Target>) seed them, and plain `go test` replays
# them as regression cases. With COLLECT=1 the new interesting inputs the
# fuzzer found are copied into testdata/fuzz so they can be committed.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
# The targets are found, not listed: every `func FuzzX(f *testing.F)` in a
# test file of a module, so a moved or renamed package cannot drop one.
targets=()
while IFS=: read -r file name; do
	dir=$(dirname "$file")
	case $dir in
	adapters/* | apps/* | examples/*) mod=${dir%%/*} pkg=./${dir#*/} ;;
	*) mod=. pkg=./$dir ;;
	esac
	targets+=("$mod:$pkg:$name")
done < <(grep -rE --include='*_test.go' -o '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' core ports adapters apps examples internal 2>/dev/null |
	sed -E 's/^([^:]+):func (Fuzz[A-Za-z0-9_]+).*/\1:\2/' | sort)
[ "${#targets[@]}" -gt 0 ] || { echo "no fuzz targets found" >&2; exit 1; }
cache=$(go env GOCACHE)/fuzz
for t in "${targets[@]}"; do
	IFS=: read -r mod pkg name <<<"$t"
	printf '== fuzz %s %s for %s\n' "${mod#.}${pkg#.}" "$name" "$fuzztime"
	start=$SECONDS
	# A failure the fuzzer can reproduce is written to the package's
	# testdata/fuzz/<Target> and fails the run. A failure of the fuzzing
	# engine itself (a worker that did not answer in time on a loaded
	# machine) writes no input: that target runs once more, and only a second
	# failure fails the run. Minimizing a new input is bounded so the workers
	# keep fuzzing within the short budget.
	dir="$mod/${pkg#./}/testdata/fuzz/$name"
	attempt=1
	while :; do
		before=$({ ls "$dir" 2>/dev/null || true; } | wc -l)
		out=$(mktemp)
		if (cd "$mod" && go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s "$pkg" >"$out" 2>&1); then
			grep -v ' INFO \| WARN ' "$out" | tail -n 3
			rm -f "$out"
			break
		fi
		grep -v ' INFO \| WARN ' "$out" | tail -n 40
		rm -f "$out"
		after=$({ ls "$dir" 2>/dev/null || true; } | wc -l)
		if [ "$after" != "$before" ] || [ "$attempt" -ge 2 ]; then
			echo "   $name failed" >&2
			exit 1
		fi
		echo "   $name: the fuzzing engine failed and recorded no failing input; running it once more"
		attempt=2
	done
	printf '   %s ran %ss with no crash\n' "$name" "$((SECONDS - start))"
	if [ "${COLLECT:-0}" = 1 ]; then
		path=$(cd "$mod" && go list "$pkg")
		mkdir -p "$dir"
		find "$cache/$path/$name" -type f 2>/dev/null | head -n 60 | while read -r f; do cp -n "$f" "$dir/"; done || true
	fi
done
