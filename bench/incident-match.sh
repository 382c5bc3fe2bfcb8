#!/usr/bin/env bash
# Matching one poll of 1,000 news items against a directory of 100,000
# generated vendors with aliases (adapters/nameindex BenchmarkPoll), on one
# core: ns/op is the whole poll, index-MB the Aho-Corasick automaton's heap,
# matcher-MB the automaton with the matcher's maps. The issue's bounds are
# under 1 s per poll and under 200 MB.
#   bash bench/incident-match.sh
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-3}
go test -run '^$' -bench 'Benchmark(Poll|Build)$' -benchtime "${BENCHTIME:-5x}" -cpu 1 -count "$COUNT" ./adapters/nameindex/
