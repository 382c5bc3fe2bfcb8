#!/usr/bin/env bash
# Starts maildev (an SMTP capture server with a JSON web API) on loopback for
# the SMTP integration tests, installing it with npm first if needed, and
# prints the VETTED_TEST_SMTP_* variables as export lines on stdout:
#
#   eval "$(bash .ci/start-smtp.sh)"
#
# Idempotent: when both ports already listen they are reused. Progress goes to
# stderr, maildev's own log to $VETTED_MAILDEV_LOG. Overridable:
# VETTED_MAILDEV_DIR ($HOME/.cache/vetted-maildev), VETTED_MAILDEV_SMTP
# (127.0.0.1:1025), VETTED_MAILDEV_WEB (127.0.0.1:1080), VETTED_MAILDEV_LOG,
# VETTED_MAILDEV_PIDFILE ($VETTED_MAILDEV_DIR/maildev.pid), VETTED_MAILDEV_WAIT (s).
set -euo pipefail

MAILDEV_VERSION=2.2.1
dir=${VETTED_MAILDEV_DIR:-$HOME/.cache/vetted-maildev}
smtp=${VETTED_MAILDEV_SMTP:-127.0.0.1:1025}
web=${VETTED_MAILDEV_WEB:-127.0.0.1:1080}
logfile=${VETTED_MAILDEV_LOG:-${TMPDIR:-/tmp}/vetted-maildev.log}
wait_s=${VETTED_MAILDEV_WAIT:-30}
pidfile=${VETTED_MAILDEV_PIDFILE:-$dir/maildev.pid}

say() { printf 'start-smtp: %s\n' "$*" >&2; }
listening() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }
web_ready() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsS -o /dev/null --max-time 2 "http://$web/email"
	else
		listening "$web"
	fi
}

if listening "$smtp" && listening "$web"; then
	say "something already listens on $smtp and $web; reusing it"
else
	if listening "$smtp" || listening "$web"; then
		say "only one of $smtp and $web is in use; free it or set VETTED_MAILDEV_SMTP/WEB"
		exit 1
	fi
	bin="$dir/node_modules/.bin/maildev"
	have=""
	if [ -f "$dir/node_modules/maildev/package.json" ] && command -v node >/dev/null 2>&1; then
		have=$(node -p "require(process.argv[1]).version" "$dir/node_modules/maildev/package.json" 2>/dev/null || true)
	fi
	if [ ! -x "$bin" ] || [ "$have" != "$MAILDEV_VERSION" ]; then
		command -v npm >/dev/null 2>&1 || { say "npm is not on PATH; install nodejs and npm"; exit 1; }
		say "installing maildev@$MAILDEV_VERSION into $dir"
		mkdir -p "$dir"
		npm install --prefix "$dir" --no-audit --no-fund "maildev@$MAILDEV_VERSION" >&2
	fi
	say "starting maildev: SMTP $smtp, web $web (log: $logfile)"
	# Detached, with no tie to our stdout, so $(...) in the caller returns.
	setsid nohup "$bin" --smtp "${smtp##*:}" --ip "${smtp%:*}" --web "${web##*:}" --web-ip "${web%:*}" \
		</dev/null >>"$logfile" 2>&1 &
	pid=$!
	echo "$pid" >"$pidfile"
	deadline=$((SECONDS + wait_s))
	until listening "$smtp" && web_ready; do
		if ((SECONDS >= deadline)); then
			say "maildev was not ready within ${wait_s}s; last log lines:"
			tail -n 20 "$logfile" >&2 || true
			exit 1
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			say "maildev exited; last log lines:"
			tail -n 20 "$logfile" >&2 || true
			exit 1
		fi
		sleep 0.2
	done
	say "maildev is ready (pid $pid)"
fi

printf 'export VETTED_TEST_SMTP_ADDR=%q\n' "$smtp"
printf 'export VETTED_TEST_SMTP_WEB=%q\n' "$web"
