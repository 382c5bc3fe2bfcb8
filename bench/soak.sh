#!/usr/bin/env bash
# Soak test: CLIENTS (200) concurrent clients for DURATION (5m) of a mix of
# reads and writes across 10 accounts (bench/soak/main.go: vendor lists,
# assessments, the dashboard, the directory, vendors, members, audit logs,
# upserts of assessments some of which do not exist yet, alerts, products,
# subscribers, and lists created and filled as the run goes, so each
# account's dashboard covers more and more lists) against `vetted serve` on
# PostgreSQL and Redis, with a separate `vetted worker`. Everything runs on
# free loopback ports and is started here: a PostgreSQL cluster of its own
# (initdb, in a temporary directory), a Redis of its own, the server and the
# worker; all are stopped and removed on exit. It never touches another
# server, and nothing it starts leaves the machine (lookups go to a closed
# loopback port, so enrichment fetches nothing). The rate limit is raised.
#
# It prints a table per route (requests, 2xx, 409, other 4xx, 5xx, transport
# errors, p50, p99, max), the server's RSS after a warm-up and at the end,
# and the outbox backlog at the end and how long it takes to drain; it fails
# when there is a 5xx, when an upsert answered 409, when a route's p99 is
# over P99_MS (500), when the RSS grew by more than 20%, or when the backlog
# does not drain within 30 s.
#   bash bench/soak.sh                        # 200 clients, 5 minutes
#   DURATION=30s CLIENTS=50 bash bench/soak.sh  # a short run
#   SERVE_ADMIN_ADDR=127.0.0.1:6961 bash bench/soak.sh  # pprof of the server at /debug/pprof/
#   PG_STATEMENTS=1 bash bench/soak.sh        # and the statements that took PostgreSQL's time
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5m}
CLIENTS=${CLIENTS:-200}
WARMUP=${WARMUP:-15s}
P99_MS=${P99_MS:-500}
ACCOUNTS=10
VENDORS=6 # on each account's master-list; the first half have an assessment
. bench/lib.sh
bench_init soak

command -v redis-server >/dev/null || apt_install redis-server
for tool in curl jq; do command -v $tool >/dev/null || apt_install $tool; done
say "load before: $(uptime)"

[ -z "${PG_STATEMENTS:-}" ] || PG_EXTRA_OPTS="-c shared_preload_libraries=pg_stat_statements"
start_postgres

say "Redis: a server of our own"
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --save "" --appendonly no \
	--dir "$work" --pidfile "$work/redis.pid" --logfile "$work/redis.log"
stoppers+=("redis-cli -p $redis_port shutdown nosave")
wait_for Redis 30 listening "$redis_port"

say "vetted serve and vetted worker"
go build -o "$work/vetted" ./apps/cmd/vetted
go build -o "$work/load" bench/soak/main.go
api_port=$(free_port)
base="http://127.0.0.1:$api_port"
export VETTED_DATABASE_URL=$db_url VETTED_REDIS_URL="redis://127.0.0.1:$redis_port/0" \
	VETTED_HTTP_ADDR="127.0.0.1:$api_port" VETTED_PUBLIC_URL=$base VETTED_DATA_DIR="$work/data" \
	VETTED_AUTH_DEV_SECRET=soak-secret-0123456789abcdef VETTED_SIGNING_KEY=soak-signing-key-0123456789 \
	VETTED_RATE_LIMIT=100000 VETTED_SCAN_RESOLVER=127.0.0.1:1 VETTED_POLL_INTERVAL=24h VETTED_LOG_LEVEL=warn
VETTED_ADMIN_ADDR=${SERVE_ADMIN_ADDR:-} "$work/vetted" serve >"$work/serve.log" 2>&1 &
serve_pid=$!
stoppers+=("kill $serve_pid; wait $serve_pid")
wait_for "vetted serve" 60 curl -sf "$base/readyz" || {
	echo "-- server log (last lines)"; tail -20 "$work/serve.log"
	echo "-- readyz"; curl -s "$base/readyz"
	exit 1
}
"$work/vetted" worker >"$work/worker.log" 2>&1 &
worker_pid=$!
stoppers+=("kill $worker_pid; wait $worker_pid")

say "setup: $ACCOUNTS accounts, $VENDORS vendors each, half of them with an assessment"
api() { # api <token> <method> <path> [body]
	local args=(-sf -X "$2" -H "Authorization: Bearer $1" -H 'Content-Type: application/json')
	[ $# -lt 4 ] || args+=(-d "$4")
	curl "${args[@]}" "$base$3"
}
admin=$("$work/vetted" token --email admin@soak.test --admin --ttl 2h)
for a in $(seq 1 $ACCOUNTS); do
	owner="owner$a@soak.test"
	tok=$("$work/vetted" token --email "$owner" --ttl 2h)
	acc=$(api "$admin" POST /accounts "{\"account\":\"Soak $a\",\"users\":[\"$owner\"]}" | jq -r .id)
	names=$(seq 1 $VENDORS | jq -R "\"Soak Vendor $a-\" + ." | jq -sc .)
	saved=$(api "$tok" POST "/vendor-lists?account-id=$acc&operation=save-vendors" "{\"vendors\":$(jq -c 'map({vendor_name: .})' <<<"$names")}")
	list=$(jq -r .list.id <<<"$saved")
	assessments=()
	for v in $(jq -r '.added[].vendor_id' <<<"$saved" | head -$((VENDORS / 2))); do
		assessments+=("$(api "$tok" POST "/vendor-assessments?account-id=$acc&vendor-list-id=$list" "{\"vendor_id\":\"$v\"}" | jq -r .id)")
	done
	jq -c --arg id "$acc" --arg token "$tok" --arg list "$list" --argjson names "$names" \
		--argjson assessments "$(printf '%s\n' "${assessments[@]}" | jq -R . | jq -sc .)" \
		'{id: $id, token: $token, list: $list, vendors: [.added[].vendor_id], vendor_names: [.added[].vendor_name], assessments: $assessments}' <<<"$saved"
done | jq -s . >"$work/data.json"

say "warm-up: $WARMUP with $CLIENTS clients"
"$work/load" -base "$base" -data "$work/data.json" -clients "$CLIENTS" -duration "$WARMUP" -quiet >"$work/warmup.out"
rss_start=$(rss_kb $serve_pid)

say "soak: $DURATION with $CLIENTS clients"
"$work/load" -base "$base" -data "$work/data.json" -clients "$CLIENTS" -duration "$DURATION" | tee "$work/soak.out"
rss_end=$(rss_kb $serve_pid)
outbox() { psql_q "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"; }
jobs() { # jobs <pending|active> (a list) or <retry|archived> (a sorted set): summed over the queues
	local n=0 cmd=llen
	case $1 in retry | archived) cmd=zcard ;; esac
	for q in critical default low; do n=$((n + $(redis-cli -p "$redis_port" $cmd "asynq:{$q}:$1"))); done
	echo $n
}
backlog=$(outbox)
jobs_left=$(($(jobs pending) + $(jobs active)))
drained=-1 jobs_done=-1
for s in $(seq 0 30); do
	[ "$drained" -ge 0 ] || [ "$(outbox)" != 0 ] || drained=$s
	[ "$jobs_done" -ge 0 ] || [ $(($(jobs pending) + $(jobs active))) != 0 ] || jobs_done=$s
	[ "$drained" -lt 0 ] || [ "$jobs_done" -lt 0 ] || break
	sleep 1
done

fivexx=$(awk '/^5xx / {print $2}' "$work/soak.out")
conflicts=$(awk '/^upsert-409 / {print $2}' "$work/soak.out")
read -r worst worst_route <<<"$(awk '/^worst-p99 / {$1 = ""; print}' "$work/soak.out")"
growth=$(awk -v a="$rss_start" -v b="$rss_end" 'BEGIN { printf "%.1f", (b - a) * 100 / a }')
say "results"
grep -E '^(requests|5xx|upsert-409|errors|worst-p99)' "$work/soak.out"
echo "lists per account at the end: $(psql_q "SELECT string_agg(n::text, ' ' ORDER BY n) FROM (SELECT count(*) AS n FROM lists GROUP BY account_id) c")"
echo "server RSS: $((rss_start / 1024)) MiB after the warm-up, $((rss_end / 1024)) MiB at the end (${growth}%)"
echo "worker RSS at the end: $(($(rss_kb $worker_pid) / 1024)) MiB"
if [ "$drained" -ge 0 ]; then
	echo "outbox backlog at the end: $backlog, drained to 0 in ${drained} s"
else
	echo "outbox backlog at the end: $backlog, NOT drained after 30 s"
fi
echo "jobs queued or running at the end: $jobs_left, none left after ${jobs_done} s (-1: not within 30 s); retrying $(jobs retry), archived $(jobs archived)"
if [ -n "${PG_STATEMENTS:-}" ]; then
	say "statements by PostgreSQL's total time"
	psql_q "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
	psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c "SELECT calls, round(total_exec_time) AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms, left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 15"
fi
say "load after: $(uptime)"
failed=0
[ "${fivexx:-1}" = 0 ] || { echo "FAIL: ${fivexx:-?} answers were 5xx"; failed=1; }
[ "${conflicts:-1}" = 0 ] || { echo "FAIL: ${conflicts:-?} upserts answered 409"; failed=1; }
awk -v w="${worst:-1e9}" -v l="$P99_MS" 'BEGIN { exit !(w > l) }' && { echo "FAIL: p99 of $worst_route was $worst ms (over $P99_MS)"; failed=1; }
awk -v g="$growth" 'BEGIN { exit !(g > 20) }' && { echo "FAIL: the server's RSS grew by ${growth}%"; failed=1; }
[ "$drained" -ge 0 ] || { echo "FAIL: the outbox did not drain within 30 s"; failed=1; }
if [ "$failed" = 0 ]; then echo "PASS"; else
	echo "-- server log (last lines)"; tail -20 "$work/serve.log"
	exit 1
fi
