-- TensorBoard scalars of jobs, stored in chunks: one row per tag and rank of each shipped batch, its points packed
-- into `points` (per point: int64 step, float64 wall time in seconds, float64 value; big-endian) and, per run of
-- 64 points, their lowest and highest point into `blocks`, from which long series are downsampled. The summary
-- columns answer the tag list and skip whole chunks in range queries without unpacking them.
create table metric_chunks (
    id              bigserial primary key,
    job_id          uuid     not null references jobs (id) on delete cascade,
    attempt         integer  not null,
    tag             text     not null,
    rank            integer  not null,
    point_count     integer  not null,
    min_step        bigint   not null,
    max_step        bigint   not null,
    -- null when every value of the chunk is NaN
    min_value       double precision,
    max_value       double precision,
    last_step       bigint   not null,
    last_value      double precision not null,
    -- the points are in step order
    sorted          boolean  not null,
    points          bytea    not null,
    blocks          bytea    not null
);
create index metric_chunks_series_idx on metric_chunks (job_id, tag, attempt, id);
create index metric_chunks_follow_idx on metric_chunks (job_id, id);

-- Agents ship a run's scalars in numbered batches like its log (see log_shipments): the last batch stored per
-- attempt, and how far each event file has been read, are written in the transaction that stores a batch.
create table metric_shipments (
    job_id      uuid    not null references jobs (id) on delete cascade,
    attempt     integer not null,
    last_batch  bigint  not null,
    primary key (job_id, attempt)
);

create table metric_read_positions (
    job_id       uuid    not null references jobs (id) on delete cascade,
    attempt      integer not null,
    -- the event file's path under the run's TensorBoard folder
    source       text    not null,
    byte_offset  bigint  not null,
    primary key (job_id, attempt, source)
);
