-- The queue's listing (every submission's answer reads it once a second) shows the jobs backing off before a retry
-- after the ready ones, the first to be ready first; this finds them in that order without walking the whole queue,
-- which may hold many thousands of jobs.
create index jobs_backing_off_idx on jobs (backend, not_before, id) where state = 'QUEUED' and not_before is not null;
