# Shared by the bench scripts (source it after cd to the repository root):
# a work directory removed on exit with everything registered in stoppers,
# free loopback ports, waiting, package installs, RSS, and a PostgreSQL
# cluster of the script's own.
#   bench_init <name>   sets work, installs the exit trap
say() { printf '== %s (at %ds)\n' "$*" "$SECONDS"; }

bench_init() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/vetted-$1.XXXXXX")
	chmod 755 "$work" # the postgres user must reach its data directory
	stoppers=()
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
}

bench_cleanup() {
	local status=$?
	set +e
	for ((i = ${#stoppers[@]} - 1; i >= 0; i--)); do eval "${stoppers[i]}" >/dev/null 2>&1; done
	rm -rf "$work"
	exit "$status"
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# free_port picks below the kernel's ephemeral range: a port in it that no
# one listens on may still be the local end of a connection (wrk's, in
# TIME_WAIT), and binding it then fails.
free_port() {
	local p low=32768
	[ -r /proc/sys/net/ipv4/ip_local_port_range ] && read -r low _ </proc/sys/net/ipv4/ip_local_port_range
	[ "$low" -gt 12000 ] || low=32768
	for _ in $(seq 1 200); do
		p=$((10000 + RANDOM % (low - 10000)))
		listening "$p" || { echo "$p"; return; }
	done
	echo "no free port found" >&2
	return 1
}
wait_for() { # wait_for <what> <seconds> <command>...
	local what=$1 secs=$2
	shift 2
	for _ in $(seq 1 $((secs * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
	echo "$what did not start within ${secs}s" >&2
	return 1
}
apt_install() {
	[ "$(id -u)" = 0 ] || { echo "missing $*: install it" >&2; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
rss_mib() { awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
hwm_mib() { awk '/^VmHWM:/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# start_postgres: initdb and start a cluster in $work on a free port; sets
# pg_port and db_url, defines psql_q, and registers the stop.
start_postgres() {
	local pg_bin
	pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
	[ -n "$pg_bin" ] || { apt_install postgresql; pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1); }
	say "PostgreSQL: a cluster of our own"
	pg_port=$(free_port)
	mkdir -p "$work/pg" "$work/pgsock"
	[ "$(id -u)" = 0 ] && chown postgres "$work/pg" "$work/pgsock"
	as_pg "$pg_bin/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 --no-sync >"$work/initdb.log"
	stoppers+=("as_pg '$pg_bin/pg_ctl' -D '$work/pg' -m fast -w stop")
	as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w -t 60 start \
		-o "-p $pg_port -k $work/pgsock -c listen_addresses=127.0.0.1 -c synchronous_commit=off ${PG_EXTRA_OPTS:-}" >/dev/null
	db_url="postgres://postgres@127.0.0.1:$pg_port/postgres?sslmode=disable"
}
psql_q() { psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c "$1"; }
ms() { date +%s%3N; }
