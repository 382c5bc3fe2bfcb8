#!/usr/bin/env bash
# Read throughput of the service against a bare Go server answering the same
# bytes, in one run.
#
# It builds `vetted` (or runs VETTED_BIN, e.g. one built from an older
# commit, for a before/after), starts it on STORE (postgres: a PostgreSQL
# cluster of its own, initdb in a temporary directory; sqlite: the embedded
# default in a temporary data directory), seeds 1,000 directory vendors with
# a profile each (500 on one account's master-list, 500 on another's), 100
# assessments, 20 members and LISTS (200) more lists of 25 vendors each on
# the first account, and runs wrk (THREADS 2, CONNS 64, DURATION 8s) against:
#   GET /vendor/{id} (a random one of the 1,000 ids per request),
#   GET /vendor-lists?vendor-list=master-list (500 entries),
#   GET /vendor-assessments (100), GET /users?account-id= (21 members),
#   GET /metrics/dashboard (an account with LISTS + 1 lists),
#   GET /vendor-lists?...&limit=100&sort=name (the first page of 100 of a
#     list of 5,000 vendors, on a third account of the same owner)
# Each answer is fetched once beforehand and served byte for byte by the
# bare net/http server (bench/bare with a directory of recorded answers), and
# each route is run against both: the table gives req/s, p50 and p99 of the
# service, the bare server's req/s on the same paths and bytes, and their
# ratio (the figure issue 24 sets at >= 0.3, p99 < 50 ms). The first row is
# the bare server writing a small JSON object, the machine's yardstick. Each
# run follows a WARMUP (2s; 0 for none) of the same load that is not counted:
# what a server that has been running holds in memory (vendor views, signed-in
# users, verified tokens, pooled connections) is there, as in steady service;
# WARMUP=0 shows a cold start. ROUTES picks routes by name (vendor list
# assessments users dashboard page; default all). The rate limit is raised for the
# run (VETTED_RATE_LIMIT); logs go to a file at LOG_LEVEL (info, as deployed).
#
# Then, unless turned off:
#   PROFILE=vendor  a CPU profile of the server under the load of one route
#              (vendor, list, assessments, users or dashboard), through pprof
#              on the admin listener; its top functions (PROFILE=whole: under
#              the WHOLE load)
#   WRITES=1   the write benchmarks of apps/api on the same store
#              (save-vendors of 500, import-csv of 500 rows)
#   WHOLE=1    on a fresh server, after 2 clients for WARMUP, CONNS (64) clients
#              reading the whole list of 5,000 (no shape parameters, an answer
#              of over 1 MB, so never remembered) for WHOLE_DURATION (10s): the
#              server's RSS before, at the end of the load and at its peak,
#              and their growth
#   BIG=1      100,000 directory vendors (one set-based insert), then
#              GET /vendors/all whole and paged, the time of each and the
#              server's RSS after
# Everything runs on free loopback ports and is removed on exit.
#   bash bench/read.sh
#   STORE=sqlite bash bench/read.sh
#   DURATION=4s PROFILE=0 WRITES=0 BIG=0 bash bench/read.sh
#   ROUTES=page PROFILE=0 WRITES=0 BIG=0 bash bench/read.sh   (the 5,000 list's memory)
set -euo pipefail
cd "$(dirname "$0")/.."
STORE=${STORE:-postgres}
DURATION=${DURATION:-8s}
CONNS=${CONNS:-64}
THREADS=${THREADS:-2}
PROFILE=${PROFILE:-vendor}
WRITES=${WRITES:-1}
BIG=${BIG:-1}
WHOLE=${WHOLE:-1}
WHOLE_DURATION=${WHOLE_DURATION:-10s}
LOG_LEVEL=${LOG_LEVEL:-info}
WARMUP=${WARMUP:-2s}
LISTS=${LISTS:-200}
ROUTES=${ROUTES:-vendor list assessments users dashboard page}
. bench/lib.sh
bench_init read

command -v wrk >/dev/null || apt_install wrk
for tool in curl jq; do command -v $tool >/dev/null || apt_install $tool; done
say "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average/load average/')"

export VETTED_DATA_DIR="$work/data"
case $STORE in
postgres)
	start_postgres
	sql() { psql_q "$1"; }
	export VETTED_DATABASE_URL=$db_url
	;;
sqlite)
	command -v sqlite3 >/dev/null || apt_install sqlite3
	sql() { sqlite3 -bail "$VETTED_DATA_DIR/vetted.db" "$1"; }
	export VETTED_STORE=sqlite
	;;
*) echo "STORE must be postgres or sqlite" >&2; exit 2 ;;
esac

say "build"
if [ -n "${VETTED_BIN:-}" ]; then
	cp "$VETTED_BIN" "$work/vetted"
	echo "vetted: $VETTED_BIN"
else
	go build -o "$work/vetted" ./apps/cmd/vetted
fi
go build -o "$work/bare" bench/bare/main.go
bare_port=$(free_port)
"$work/bare" "127.0.0.1:$bare_port" &
stoppers+=("kill $!")
api_port=$(free_port)
admin_port=$(free_port)
base="http://127.0.0.1:$api_port"
export VETTED_HTTP_ADDR="127.0.0.1:$api_port" VETTED_ADMIN_ADDR="127.0.0.1:$admin_port" VETTED_PUBLIC_URL=$base \
	VETTED_AUTH_DEV_SECRET=read-bench-secret-0123456789abcdef VETTED_SIGNING_KEY=read-bench-signing-key-0123456789 \
	VETTED_RATE_LIMIT=1000000 VETTED_SCAN_RESOLVER=127.0.0.1:1 VETTED_POLL_INTERVAL=24h VETTED_REENRICH_INTERVAL=240h \
	VETTED_LOG_LEVEL=$LOG_LEVEL VETTED_LOG_FORMAT=json
"$work/vetted" serve >"$work/serve.log" 2>&1 &
serve_pid=$!
stoppers+=("kill $serve_pid; wait $serve_pid")
wait_for "vetted serve" 60 curl -sf "$base/readyz"
wait_for "bare server" 30 listening "$bare_port"

say "seed: 1,000 vendors with profiles, a master-list of 500, 100 assessments, 21 members, $LISTS more lists of 25"
api() { # api <token> <method> <path> [body]
	local args=(-sf -X "$2" -H "Authorization: Bearer $1" -H 'Content-Type: application/json')
	[ $# -lt 4 ] || args+=(-d "$4")
	curl "${args[@]}" "$base$3"
}
admin=$("$work/vetted" token --email admin@read.test --admin --ttl 2h)
owner=$("$work/vetted" token --email owner@read.test --ttl 2h)
other=$("$work/vetted" token --email other@read.test --ttl 2h)
acc=$(api "$admin" POST /accounts '{"account":"Read Bench","users":["owner@read.test"]}' | jq -r .id)
acc2=$(api "$admin" POST /accounts '{"account":"Read Bench Other","users":["other@read.test"]}' | jq -r .id)
names() { seq "$1" "$2" | jq -R '{vendor_name: ("Read Vendor " + .), website_url: ("https://vendor" + . + ".example")}' | jq -sc .; }
api "$owner" POST "/vendor-lists?account-id=$acc&operation=save-vendors" "{\"vendors\":$(names 1 500)}" >"$work/saved1.json"
api "$other" POST "/vendor-lists?account-id=$acc2&operation=save-vendors" "{\"vendors\":$(names 501 1000)}" >"$work/saved2.json"
list=$(jq -r .list.id "$work/saved1.json")
jq -r '.added[].vendor_id' "$work/saved1.json" "$work/saved2.json" >"$work/ids"
[ "$(wc -l <"$work/ids")" = 1000 ] || { echo "seeding gave $(wc -l <"$work/ids") vendors, not 1000" >&2; exit 1; }
patch='{"company":{"industry":"Software","company_description":"A vendor for the read benchmark"},"security":{"compliance_certifications":["SOC 2","ISO 27001"]}}'
export base admin patch
xargs -P 8 -I{} sh -c 'curl -sf -o /dev/null -X PATCH -H "Authorization: Bearer $admin" -H "Content-Type: application/json" "$base/vendor/{}" -d "$patch"' <"$work/ids"
head -100 "$work/ids" | xargs -P 8 -I{} sh -c 'curl -sf -o /dev/null -X POST -H "Authorization: Bearer '"$owner"'" -H "Content-Type: application/json" "$base/vendor-assessments?account-id='"$acc"'&vendor-list-id='"$list"'" -d "{\"vendor_id\":\"{}\",\"compliance_approval_status\":\"in-progress\"}"'
members=$(seq 1 20 | jq -R '{email: ("member" + . + "@read.test"), role: "member"}' | jq -sc .)
api "$owner" POST "/users?account-id=$acc" "{\"users\":$members}" >/dev/null
# LISTS more lists of 25 vendors of the master-list each (vendors with
# profiles: nothing to enrich), for the dashboard; a request the loaded
# server gave up on is sent again.
try3() { for _ in 1 2 3; do "$@" && return 0; sleep 1; done; "$@"; }
seed_list() { # seed_list <n>
	local first=$((($1 * 7) % 475 + 1)) st
	st=$(curl -s -o "$work/list.out" -w '%{http_code}' -X POST -H "Authorization: Bearer $owner" "$base/vendor-lists?account-id=$acc&vendor-list=Bench+List+$1")
	[ "$st" = 201 ] || [ "$st" = 409 ] || { cat "$work/list.out" >&2; return 1; }
	curl -s --fail-with-body -o "$work/list.out" -X POST -H "Authorization: Bearer $owner" -H "Content-Type: application/json" \
		"$base/vendor-lists?account-id=$acc&operation=save-vendors&vendor-list=Bench+List+$1" \
		-d "$(seq $first $((first + 24)) | jq -R '{vendor_name: ("Read Vendor " + .)}' | jq -sc '{vendors: .}')" ||
		{ cat "$work/list.out" >&2; echo >&2; return 1; }
}
for n in $(seq 1 "$LISTS"); do try3 seed_list "$n"; done
# A list of 5,000 (the 1,000 vendors with profiles and 4,000 by name only,
# "Big Vendor N"; the BIG part adds "Directory Vendor N", which must not collide)
# on a third account of the owner, for the page of 100 and the WHOLE part.
if [[ " $ROUTES " == *" page "* ]] || [ "$WHOLE" = 1 ]; then
	acc3=$(api "$admin" POST /accounts '{"account":"Read Bench Big","users":["owner@read.test"]}' | jq -r .id)
	{ seq 1 1000 | jq -R '{vendor_name: ("Read Vendor " + .)}'; seq 1 4000 | jq -R '{vendor_name: ("Big Vendor " + .)}'; } | jq -sc '{vendors: .}' >"$work/big.json"
	api "$owner" POST "/vendor-lists?account-id=$acc3&operation=save-vendors" "@$work/big.json" >"$work/big.out"
	[ "$(jq '.list.vendor_count' "$work/big.out")" = 5000 ] || { echo "the big list does not hold 5,000 vendors" >&2; exit 1; }
fi
# Saving queued an enrichment of every new vendor (lookups go to a closed
# port); the in-process runner works through them for a while after the
# outbox is empty. The reads are measured once it is idle: the outbox
# empty and no job ending (vetted_jobs_total) for 3 s, else the run would
# measure 1,000 scans as well, each of which moves the directory on.
jobs_done() { curl -sf "http://127.0.0.1:$admin_port/metrics" | awk '/^vetted_jobs_total/ { n += $2 } END { print n + 0 }'; }
idle=0 last=-1 t0=$(ms)
while [ $idle -lt 6 ]; do
	sleep 0.5
	n=$(jobs_done)
	if [ "$(sql "SELECT count(*) FROM outbox WHERE delivered_at IS NULL")" = 0 ] && [ "$n" = "$last" ]; then idle=$((idle + 1)); else idle=0; fi
	last=$n
	[ $(($(ms) - t0)) -lt 600000 ] || { echo "the job queue was still busy after 10 minutes" >&2; exit 1; }
done
echo "job queue idle after $(($(ms) - t0)) ms ($last jobs ended)"
[ "$(api "$owner" GET "/vendor-lists?account-id=$acc&vendor-list=master-list" | jq '.vendors | length')" = 500 ] || { echo "the master-list does not hold 500 vendors" >&2; exit 1; }
[ "$(api "$owner" GET "/vendor-assessments?account-id=$acc&vendor-list-id=$list" | jq '.assessments | length')" = 100 ] || { echo "there are not 100 assessments" >&2; exit 1; }

sed 's|^|/vendor/|' "$work/ids" >"$work/vendor.paths"
echo "/vendor-lists?account-id=$acc&vendor-list=master-list" >"$work/list.paths"
echo "/vendor-assessments?account-id=$acc&vendor-list-id=$list" >"$work/assessments.paths"
echo "/users?account-id=$acc" >"$work/users.paths"
echo "/metrics/dashboard?account-id=$acc" >"$work/dashboard.paths"
echo "/vendor-lists?account-id=${acc3:-none}&vendor-list=master-list&limit=100&sort=name" >"$work/page.paths"
echo "/" >"$work/bare.paths"
[ "$(api "$owner" GET "/metrics/dashboard?account-id=$acc" | jq .totalVendors)" = 500 ] || { echo "the dashboard does not count 500 vendors" >&2; exit 1; }

# Every answer once, for the bare server to serve the same bytes.
say "recording every answer once for the same-bytes bare server"
mkdir -p "$work/answers"
for r in $ROUTES; do cat "$work/$r.paths"; done | nl -ba -w1 -s' ' >"$work/answers.index"
export work owner
xargs -P 8 -L 1 sh -c 'printf %s "$1" >"$work/answers/$0.path" && curl -sf -o "$work/answers/$0.body" -H "Authorization: Bearer $owner" "$base$1"' <"$work/answers.index"
[ "$(ls "$work/answers" | grep -c '\.body$')" = "$(wc -l <"$work/answers.index")" ] || { echo "some answers could not be recorded" >&2; exit 1; }
same_port=$(free_port)
"$work/bare" "127.0.0.1:$same_port" "$work/answers" 2>>"$work/bare.log" &
stoppers+=("kill $!")
wait_for "same-bytes bare server" 30 listening "$same_port"
size_kb() { # mean answer size of a paths file, in KB
	local f=$1 total=0 n=0 p b
	while read -r i p; do
		if grep -qxF "$p" "$f"; then b=$(stat -c %s "$work/answers/$i.body"); total=$((total + b)); n=$((n + 1)); fi
	done <"$work/answers.index"
	awk -v t="$total" -v n="$n" 'BEGIN { printf (t / n < 1000 ? "%.0f B" : "%.1f KB"), (t / n < 1000 ? t / n : t / n / 1000) }'
}

# load <name> <base> <paths>: prints RESULT req/s p50 p99 non-2xx requests socket-errors
load() {
	wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --timeout 10s -H "Authorization: Bearer $owner" \
		-s bench/read.lua "$2" -- "$3" | awk '/^RESULT/ {$1 = ""; print}'
}
if [ "$WARMUP" = 0 ]; then
	say "wrk -t$THREADS -c$CONNS -d$DURATION per route ($STORE), cold (no warm-up)"
else
	say "wrk -t$THREADS -c$CONNS -d$DURATION per route ($STORE), each after a ${WARMUP} warm-up that is not counted"
fi
printf '%-48s %9s %9s %8s %8s %10s %6s %8s\n' route answer req/s p50_ms p99_ms same-bytes ratio non-2xx
measure() { # measure <base> <paths>: "rps p50 p99 failures" after the warm-up
	local rps p50 p99 bad n errs
	[ "$WARMUP" = 0 ] || DURATION=$WARMUP load x "$1" "$2" >/dev/null
	read -r rps p50 p99 bad n errs <<<"$(load x "$1" "$2")"
	echo "$rps $p50 $p99 $((bad + errs))"
}
run() { # run <label> <paths>: the service, then the bare server on the same bytes
	local rps p50 p99 bad brps bp50 bp99 bbad
	read -r rps p50 p99 bad <<<"$(measure "$base" "$2")"
	read -r brps bp50 bp99 bbad <<<"$(measure "http://127.0.0.1:$same_port" "$2")"
	[ "$bbad" = 0 ] || echo "the same-bytes bare server failed $bbad requests of $1" >&2
	printf '%-48s %9s %9s %8s %8s %10s %6s %8s\n' "$1" "$(size_kb "$2")" "$rps" "$p50" "$p99" "$brps" \
		"$(awk -v a="$rps" -v b="$brps" 'BEGIN { printf (a / b < 0.01 ? "%.4f" : "%.3f"), a / b }')" "$bad"
}
read -r rps p50 p99 bad <<<"$(measure "http://127.0.0.1:$bare_port" "$work/bare.paths")"
printf '%-48s %9s %9s %8s %8s %10s %6s %8s\n' "bare net/http JSON (bench/bare)" "small" "$rps" "$p50" "$p99" - - "$bad"
for r in $ROUTES; do
	case $r in
	vendor) run "GET /vendor/{id} (1,000 random ids)" "$work/vendor.paths" ;;
	list) run "GET /vendor-lists?vendor-list=master-list (500)" "$work/list.paths" ;;
	assessments) run "GET /vendor-assessments (100)" "$work/assessments.paths" ;;
	users) run "GET /users?account-id= (21 members)" "$work/users.paths" ;;
	dashboard) run "GET /metrics/dashboard ($((LISTS + 1)) lists)" "$work/dashboard.paths" ;;
	page) run "GET /vendor-lists page of 100 (of 5,000)" "$work/page.paths" ;;
	*) echo "unknown route $r" >&2; exit 2 ;;
	esac
done
echo "server RSS after the reads: $(rss_mib $serve_pid) MiB (peak $(hwm_mib $serve_pid) MiB)"

if [ -n "${HOLD:-}" ]; then # keep everything up for a look by hand
	echo "$owner" >"$work/owner.token"
	say "holding for $HOLD: $base (owner token in $work/owner.token, list $list, account $acc)${db_url:+, $db_url}"
	sleep "$HOLD"
fi

if [ "$PROFILE" != 0 ] && [ "$PROFILE" != whole ]; then
	secs=${DURATION%s}
	say "CPU profile under the load of $PROFILE (${secs}s)"
	curl -sf -o "$work/cpu.pprof" "http://127.0.0.1:$admin_port/debug/pprof/profile?seconds=$((secs > 2 ? secs - 1 : 1))" &
	prof=$!
	load "$PROFILE" "$base" "$work/$PROFILE.paths" >/dev/null
	wait $prof
	go tool pprof -top -nodecount=25 "$work/vetted" "$work/cpu.pprof" 2>/dev/null | sed -n '1,35p'
	echo "-- cumulative"
	go tool pprof -top -cum -nodecount=40 "$work/vetted" "$work/cpu.pprof" 2>/dev/null | sed -n '6,50p'
fi

if [ "$WRITES" = 1 ]; then
	say "writes (apps/api benchmarks, $STORE, -benchtime 10x)"
	if [ "$STORE" = postgres ]; then
		(cd apps && VETTED_TEST_STORE=postgres VETTED_TEST_DATABASE_URL=$db_url \
			go test ./api/ -run '^$' -bench 'SaveVendors500|ImportCSV500' -benchtime 10x -count 1 | grep -E '^Benchmark')
	else
		(cd apps && VETTED_TEST_STORE=sqlite go test ./api/ -run '^$' -bench 'SaveVendors500|ImportCSV500' -benchtime 10x -count 1 | grep -E '^Benchmark')
	fi
fi

if [ "$WHOLE" = 1 ]; then
	say "memory: $CONNS clients reading the whole list of 5,000 for $WHOLE_DURATION ($STORE)"
	# A fresh server, so that its RSS tells what these reads cost; one read
	# first, outside the figures, which checks the answer.
	kill $serve_pid && wait $serve_pid || true
	"$work/vetted" serve >>"$work/serve.log" 2>&1 &
	serve_pid=$!
	stoppers+=("kill $serve_pid; wait $serve_pid")
	wait_for "vetted serve" 60 curl -sf "$base/readyz"
	whole_path="/vendor-lists?account-id=$acc3&vendor-list=master-list"
	echo "$whole_path" >"$work/whole.paths"
	curl -sf -o "$work/whole.json" -H "Authorization: Bearer $owner" "$base$whole_path"
	[ "$(jq '.vendors | length' "$work/whole.json")" = 5000 ] || { echo "the whole list does not answer 5,000 vendors" >&2; exit 1; }
	whole_bytes=$(stat -c %s "$work/whole.json")
	[ "$whole_bytes" -gt 1048576 ] || echo "warning: the answer ($whole_bytes bytes) is small enough for the API to remember it" >&2
	# Two clients for WARMUP first, not counted: the store's connections
	# opened, the code paged in, what one reader needs in place, so that the
	# growth is what the number of readers costs.
	[ "$WARMUP" = 0 ] || CONNS=2 DURATION=$WARMUP load whole "$base" "$work/whole.paths" >/dev/null
	sleep 1
	heap_mb() { curl -sf "http://127.0.0.1:$admin_port/metrics" | awk '/^go_memstats_heap_inuse_bytes/ { printf "%.1f", $2 / 1e6 }'; }
	# What the Go runtime holds from the OS (heap spans not yet returned,
	# stacks, its own structures): RSS beyond it is the store's C memory.
	held_mb() { curl -sf "http://127.0.0.1:$admin_port/metrics" | awk '/^go_memstats_sys_bytes/ { s = $2 } /^go_memstats_heap_released_bytes/ { r = $2 } END { printf "%.1f", (s - r) / 1e6 }'; }
	heap_before=$(heap_mb) held_before=$(held_mb)
	rss_before_kb=$(rss_kb $serve_pid)
	DURATION=$WHOLE_DURATION load whole "$base" "$work/whole.paths" >"$work/whole.result" &
	wrk_pid=$!
	if [ "$PROFILE" = whole ]; then
		secs=${WHOLE_DURATION%s}
		curl -sf -o "$work/cpu.pprof" "http://127.0.0.1:$admin_port/debug/pprof/profile?seconds=$((secs > 2 ? secs - 1 : 1))" &
		prof=$!
	fi
	rss_end_kb=$rss_before_kb rss_max_kb=$rss_before_kb
	heap_end=$heap_before
	while kill -0 $wrk_pid 2>/dev/null; do # the last sample is within 0.3 s of the load's end
		kb=$(rss_kb $serve_pid)
		h=$(heap_mb) || h=$heap_end
		kill -0 $wrk_pid 2>/dev/null || break
		rss_end_kb=$kb heap_end=${h:-$heap_end}
		[ "$kb" -le "$rss_max_kb" ] || rss_max_kb=$kb
		sleep 0.2
	done
	wait $wrk_pid
	held_end=$(held_mb)
	read -r rps p50 p99 bad n errs <"$work/whole.result"
	echo "GET $whole_path ($((whole_bytes / 1024)) KiB): $rps req/s, p50 $p50 ms, p99 $p99 ms, $((bad + errs)) failed of $n"
	mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; } # VmRSS is in KiB
	echo "server RSS: $(mb "$rss_before_kb") MB before, $(mb "$rss_end_kb") MB at the end of the load, peak $(mb "$rss_max_kb") MB during it"
	echo "of it the Go heap in use (the rest: the store's own memory, stacks): $heap_before MB before, $heap_end MB at the end"
	echo "held by the Go runtime from the OS (heap not returned yet, stacks): $held_before MB before, $held_end MB just after the load"
	echo "RSS growth while $CONNS clients read the 5,000 list: $(mb $((rss_end_kb - rss_before_kb))) MB (peak $(mb $((rss_max_kb - rss_before_kb))) MB)"
	if [ "$PROFILE" = whole ]; then
		wait "$prof"
		say "CPU profile of the server under that load"
		go tool pprof -top -nodecount=25 "$work/vetted" "$work/cpu.pprof" 2>/dev/null | sed -n '1,35p'
		echo "-- cumulative"
		go tool pprof -top -cum -nodecount=40 "$work/vetted" "$work/cpu.pprof" 2>/dev/null | sed -n '6,50p'
	fi
fi

if [ "$BIG" = 1 ]; then
	say "GET /vendors/all with 100,000 directory vendors"
	if [ "$STORE" = postgres ]; then
		sql "INSERT INTO vendors (id, name, website_url, domain, created_at)
			SELECT gen_random_uuid(), 'Directory Vendor ' || g, 'https://dir' || g || '.example', 'dir' || g || '.example', now()
			FROM generate_series(1, 99000) g"
	else
		sql "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 99000)
			INSERT INTO vendors (id, name, name_key, website_url, domain, created_at)
			SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
				'Directory Vendor ' || n, 'directory vendor ' || n, 'https://dir' || n || '.example', 'dir' || n || '.example',
				(SELECT created_at FROM vendors LIMIT 1)
			FROM g"
	fi
	echo "directory vendors: $(sql "SELECT count(*) FROM vendors")"
	# A fresh server, so that its RSS tells what the directory reads cost.
	kill $serve_pid && wait $serve_pid || true
	"$work/vetted" serve >>"$work/serve.log" 2>&1 &
	serve_pid=$!
	stoppers+=("kill $serve_pid; wait $serve_pid")
	wait_for "vetted serve" 60 curl -sf "$base/readyz"
	rss_before=$(rss_mib $serve_pid)
	t0=$(ms)
	curl -sf -o "$work/all.json" -H "Authorization: Bearer $owner" "$base/vendors/all"
	t1=$(ms)
	echo "GET /vendors/all (whole, $(jq '.vendors | length' "$work/all.json") vendors, $(($(stat -c %s "$work/all.json") / 1024)) KiB): $((t1 - t0)) ms"
	pages=0 total=0 cursor= http_s=0 slowest=0
	while :; do
		t=$(curl -sf -o "$work/page.json" -w '%{time_total}' -H "Authorization: Bearer $owner" "$base/vendors/all?limit=1000${cursor:+&cursor=$cursor}")
		http_s=$(awk -v a="$http_s" -v b="$t" 'BEGIN { print a + b }')
		slowest=$(awk -v a="$slowest" -v b="$t" 'BEGIN { print (b > a ? b : a) }')
		pages=$((pages + 1)) total=$((total + $(jq '.vendors | length' "$work/page.json")))
		cursor=$(jq -r '.next_cursor // empty' "$work/page.json")
		[ -n "$cursor" ] || break
	done
	echo "GET /vendors/all?limit=1000 (every page: $pages pages, $total vendors): $(awk -v s="$http_s" 'BEGIN { printf "%.0f", s * 1000 }') ms in HTTP, slowest page $(awk -v s="$slowest" 'BEGIN { printf "%.1f", s * 1000 }') ms"
	t0=$(ms)
	curl -sf -o /dev/null -H "Authorization: Bearer $owner" "$base/vendors/all?limit=100"
	t1=$(ms)
	echo "GET /vendors/all?limit=100 (first page): $((t1 - t0)) ms"
	echo "server RSS (restarted for this part): $rss_before MiB before, $(rss_mib $serve_pid) MiB after, peak $(hwm_mib $serve_pid) MiB"
fi
say "load after: $(uptime | sed 's/.*load average/load average/')"
