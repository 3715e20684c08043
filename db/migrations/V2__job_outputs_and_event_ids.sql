-- Output URIs are resolved once, at submission, instead of re-reading the task config for every view.
alter table jobs add column outputs jsonb not null default '{}'::jsonb;

-- Event ids are handed out 50 at a time by the server (a pooled sequence), saving a round trip per event.
alter sequence job_events_id_seq increment by 50;
