-- Configs are read once, at submission: the server's typed reading is stored beside the frozen text, so the
-- dispatcher, the backends and the agents' assignments never parse YAML again. Jobs stored before this
-- version are read by the Java migration V7 (db/migrations/V7__ReadStoredConfigs.java), then V8 requires both.
alter table jobs add column task jsonb;
alter table jobs add column resource jsonb;
