#!/usr/bin/env bash
# The ceiling for submissions/s (issue 24): what PostgreSQL 15 on this machine commits with 16 clients when each
# transaction inserts what a submission stores, a job row of about 2.2 KB plus its event row, on a scratch
# cluster set up as the server's embedded one is (fsync and synchronous_commit on). Prints "<tps>" alone.
# Usage: bench/server/pgbench.sh [seconds]   (as root it runs PostgreSQL as the postgres user)
set -euo pipefail
seconds="${1:-20}"
# A folder of its own, which the postgres user can enter.
scratch="$(mktemp -d)"
bin=/usr/lib/postgresql/15/bin
port=18199
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

chmod 777 "$scratch"
as_postgres "$bin/initdb" -D "$scratch/data" -U postgres -A trust --no-sync > "$scratch/initdb.log"
cat >> "$scratch/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$scratch'
max_connections = 200
fsync = on
synchronous_commit = on
CONF
as_postgres "$bin/pg_ctl" -D "$scratch/data" -l "$scratch/postgres.log" -w start > /dev/null
trap 'as_postgres "$bin/pg_ctl" -D "$scratch/data" -m fast -w stop > /dev/null; rm -rf "$scratch"' EXIT

psql=(/usr/lib/postgresql/15/bin/psql -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1)
"${psql[@]}" <<'SQL'
-- A job's columns as the server stores them: its identity and state, and its frozen configs (hex text, which
-- does not compress, so the row stays about 2.2 KB as stored, as a real one does).
create table jobs (id uuid primary key, name text not null, state text not null, submitted_by text not null,
                   configs text not null, created_at timestamptz not null);
create index on jobs (created_at desc);
create table job_events (id bigserial primary key, job_id uuid not null references jobs (id), state text not null,
                         at timestamptz not null);
create index on job_events (job_id);
create table payload as select string_agg(md5(i::text), '') as configs from generate_series(1, 66) as i;
SQL
cat > "$scratch/submission.sql" <<'SQL'
\set n random(1, 1000000000)
begin;
insert into jobs select gen_random_uuid(), 'bench_' || :n, 'QUEUED', 'admin', configs, now() from payload returning id \gset
insert into job_events (job_id, state, at) values (:id, 'QUEUED', now());
commit;
SQL
# Prepared statements, as the server's driver sends them (pgbench passes the variables as their parameters).
as_postgres "$bin/pgbench" -n -h 127.0.0.1 -p "$port" -U postgres -M prepared -c 16 -j 2 -T "$seconds" -f "$scratch/submission.sql" postgres \
  | awk '/^tps = / {printf "%.0f\n", $3}'
