#!/usr/bin/env bash
# Starts versitygw (an S3-compatible gateway over a local directory) on
# loopback for the S3 integration tests, installing it first if needed, and
# prints the VETTED_TEST_S3_* variables as export lines on stdout:
#
#   eval "$(bash .ci/start-s3.sh)"
#
# Idempotent: when something already listens on the address it is reused (it
# must be versitygw or another S3 server with these credentials). Progress
# goes to stderr, the server's own log to $VETTED_S3_LOG. Overridable:
# VETTED_S3_ADDR (127.0.0.1:7070), VETTED_S3_DIR, VETTED_S3_LOG,
# VETTED_TEST_S3_ACCESS_KEY, VETTED_TEST_S3_SECRET_KEY, VETTED_S3_WAIT (s).
set -euo pipefail

VERSITYGW_VERSION=v1.8.0
addr=${VETTED_S3_ADDR:-127.0.0.1:7070}
host=${addr%:*}
port=${addr##*:}
access=${VETTED_TEST_S3_ACCESS_KEY:-vettedtest}
secret=${VETTED_TEST_S3_SECRET_KEY:-vettedtestsecret}
data=${VETTED_S3_DIR:-${TMPDIR:-/tmp}/vetted-versitygw}
logfile=${VETTED_S3_LOG:-$data.log}
wait_s=${VETTED_S3_WAIT:-30}

say() { printf 'start-s3: %s\n' "$*" >&2; }
listening() { (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; }

find_versitygw() {
	local gobin
	if command -v versitygw >/dev/null 2>&1; then
		command -v versitygw
		return
	fi
	if command -v go >/dev/null 2>&1; then
		gobin=$(go env GOBIN)
		[ -n "$gobin" ] || gobin="$(go env GOPATH | cut -d: -f1)/bin"
		if [ -x "$gobin/versitygw" ]; then
			printf '%s\n' "$gobin/versitygw"
			return
		fi
	fi
	return 1
}

if listening; then
	say "something already listens on $addr; reusing it"
else
	if ! bin=$(find_versitygw); then
		command -v go >/dev/null 2>&1 || { say "versitygw is not installed and go is not on PATH"; exit 1; }
		say "installing versitygw $VERSITYGW_VERSION (about 100 s on a cold cache)"
		GOFLAGS= go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" >&2
		bin=$(find_versitygw) || { say "go install succeeded but versitygw is not in GOBIN"; exit 1; }
	fi
	mkdir -p "$data"
	say "starting $bin on $addr over $data (log: $logfile)"
	# Detached, with no tie to our stdout, so $(...) in the caller returns.
	ROOT_ACCESS_KEY=$access ROOT_SECRET_KEY=$secret \
		setsid nohup "$bin" --port "$addr" posix "$data" </dev/null >>"$logfile" 2>&1 &
	echo $! >"$data.pid"
	deadline=$((SECONDS + wait_s))
	until listening; do
		if ((SECONDS >= deadline)); then
			say "versitygw did not listen on $addr within ${wait_s}s; last log lines:"
			tail -n 20 "$logfile" >&2 || true
			exit 1
		fi
		if ! kill -0 "$(cat "$data.pid")" 2>/dev/null; then
			say "versitygw exited; last log lines:"
			tail -n 20 "$logfile" >&2 || true
			exit 1
		fi
		sleep 0.1
	done
	say "versitygw is ready on $addr (pid $(cat "$data.pid"))"
fi

printf 'export VETTED_TEST_S3_ENDPOINT=%q\n' "http://$addr"
printf 'export VETTED_TEST_S3_ACCESS_KEY=%q\n' "$access"
printf 'export VETTED_TEST_S3_SECRET_KEY=%q\n' "$secret"
