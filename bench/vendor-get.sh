#!/usr/bin/env bash
# Throughput of GET /vendor/{id} under wrk, against a vetted server started
# here on loopback (embedded default, or PostgreSQL when VETTED_DATABASE_URL
# is set). Bounded: one run of DURATION (10s) with CONNS (32) connections.
#   bash bench/vendor-get.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
ADDR=${ADDR:-127.0.0.1:18181}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
go build -o /tmp/vetted-bench ./apps/cmd/vetted
export VETTED_AUTH_DEV_SECRET=bench-secret-0123456789abcdef VETTED_HTTP_ADDR=$ADDR VETTED_RATE_LIMIT=-1
VETTED_DATA_DIR=$(mktemp -d) /tmp/vetted-bench serve >/dev/null 2>/tmp/vetted-bench.log &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -sf "http://$ADDR/healthz" >/dev/null && break; sleep 0.1; done
TOKEN=$(/tmp/vetted-bench token --email bench@vetted.local --admin)
H="Authorization: Bearer $TOKEN"
ACC=$(curl -sf -X POST -H "$H" -H 'Content-Type: application/json' "http://$ADDR/accounts" \
	-d '{"account":"Bench '"$RANDOM"'","users":["bench@vetted.local"]}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -sf -X POST -H "$H" -H 'Content-Type: application/json' "http://$ADDR/vendor-lists?account-id=$ACC&operation=save-vendors" \
	-d '{"vendors":["Bench Vendor"]}' >/dev/null
curl -sf -X PATCH -H "$H" -H 'Content-Type: application/json' "http://$ADDR/vendor/Bench%20Vendor" \
	-d '{"company":{"industry":"Software","company_description":"A vendor for benchmarks"},"security":{"compliance_certifications":["SOC 2","ISO 27001"]}}' >/dev/null
ID=$(curl -sf -H "$H" "http://$ADDR/vendor/Bench%20Vendor" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
echo "GET /vendor/$ID for $DURATION with $CONNS connections"
wrk -t2 -c"$CONNS" -d"$DURATION" -H "$H" "http://$ADDR/vendor/$ID"
