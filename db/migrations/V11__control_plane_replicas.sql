-- Each server replica heartbeats its row every second (DatabaseConnectivity) and deletes it when it shuts
-- down. A row gone stale means a replica that lost the database or died: while one is stale for less than a
-- lease, no replica declares agents lost (their heartbeats may have gone to it); see README, "Leases".
create table control_plane_replicas (
    node_id      text        primary key,
    last_seen_at timestamptz not null
);

-- The last database outage that pushed an agent's lease out, as the replica that saw it end reports it.
alter table agents add column outage_lost_at timestamptz;
alter table agents add column outage_back_at timestamptz;
alter table agents add column outage_seen_by text;
