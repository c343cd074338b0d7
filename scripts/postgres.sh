#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks, from Debian's postgresql package.
#
#   scripts/postgres.sh start DIR   # initdb in DIR (created; kept when already there), start it,
#                                   # print a connection string
#   scripts/postgres.sh stop DIR    # stop it (the caller removes DIR)
#
# The cluster runs as an unprivileged user (PostgreSQL refuses root: as root it runs as
# `nobody`), listens only on a unix socket in DIR, trusts local connections, and has a
# superuser called inksticker. Nothing outside DIR is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v initdb >/dev/null 2>&1 || [ -n "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" ] || scripts/deps.sh postgresql >&2
bin="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)")"
[ -x "$bin/initdb" ] || { echo "initdb not found" >&2; exit 1; }
action="${1:?start|stop}"
dir="$(realpath -m "${2:?directory}")"

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
  else
    "$@"
  fi
}

case "$action" in
  start)
    mkdir -p "$dir"
    chmod 755 "$dir"
    [ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$dir"
    if [ ! -d "$dir/data" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U inksticker --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=200 -c fsync=on" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "host=$dir user=inksticker dbname=postgres"
    ;;
  stop)
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
