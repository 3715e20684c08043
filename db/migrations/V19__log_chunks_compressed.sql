-- Log chunks stored from now on hold their text compressed by the server (LZ4, see ChunkCompression): lines_lz4, with
-- the length of the text's UTF-8 bytes. Older chunks keep their text in lines; both read alike. The compressed bytes are
-- stored as they are (storage external): compressing them again would only cost time.
alter table log_chunks alter column lines drop not null;
alter table log_chunks add column lines_lz4 bytea, add column lines_bytes integer;
alter table log_chunks alter column lines_lz4 set storage external;
alter table log_chunks add constraint log_chunks_one_form
    check ((lines is null) <> (lines_lz4 is null) and (lines_lz4 is null) = (lines_bytes is null));
