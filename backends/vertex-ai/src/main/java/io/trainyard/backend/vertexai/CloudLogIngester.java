package io.trainyard.backend.vertexai;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.google.cloud.logging.v2.LoggingClient;
import com.google.logging.type.LogSeverity;
import com.google.logging.v2.ListLogEntriesRequest;
import com.google.logging.v2.LogEntry;
import com.google.protobuf.Value;
import io.trainyard.logs.LogSink;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;

/**
 * Copies a CustomJob's Cloud Logging entries into the job's log sink, in (timestamp, insertId) order,
 * resuming after the last stored entry. Entries younger than the settle time are left for a later read:
 * Cloud Logging may make an entry readable after younger ones, and reading past it would skip it.
 */
final class CloudLogIngester {

    private static final int PAGE_SIZE = 1000;

    private final LoggingClient logging;
    private final QuotaLimiter reads;
    private final String project;
    private final String customJobId;
    private final LogSink sink;
    private CloudLogCursor cursor;

    CloudLogIngester(LoggingClient logging, QuotaLimiter reads, String project, String customJobId, LogSink sink,
            CloudLogCursor cursor) {
        this.logging = logging;
        this.reads = reads;
        this.project = project;
        this.customJobId = customJobId;
        this.sink = sink;
        this.cursor = cursor;
    }

    /** Reads and queues every entry older than {@code until}; returns how many lines were queued. */
    int ingestUntil(Instant until) throws InterruptedException {
        String filter = "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + customJobId + "\""
                + " AND timestamp>=\"" + cursor.instant() + "\" AND timestamp<\"" + until + "\"";
        ListLogEntriesRequest request = ListLogEntriesRequest.newBuilder()
                .addResourceNames("projects/" + project)
                .setFilter(filter)
                .setOrderBy("timestamp asc")
                .setPageSize(PAGE_SIZE)
                .build();
        CloudLogCursor start = cursor;
        int queued = 0;
        int skipped = 0;
        String pageToken = "";
        do {
            LoggingClient.ListLogEntriesPage page;
            try (QuotaLimiter.Permit permit = reads.acquire(project)) {
                page = logging.listLogEntries(request.toBuilder().setPageToken(pageToken).build()).getPage();
            }
            List<LineQueue.Entry> lines = new ArrayList<>();
            for (LogEntry entry : page.getValues()) {
                long micros = entry.getTimestamp().getSeconds() * 1_000_000L + entry.getTimestamp().getNanos() / 1_000;
                // Only the entries of the microsecond the listing starts at were stored before; compared with the
                // moving cursor, a second entry of any microsecond would be taken for one already stored.
                if (micros < start.epochMicros()
                        || (micros == start.epochMicros() && skipped < start.storedAtThatMicro())) {
                    skipped++;
                    continue;
                }
                cursor = cursor.after(micros);
                lines.add(new LineQueue.Entry(new OutputLine(micros, stream(entry), rank(entry), text(entry)),
                        CloudLogCursor.SOURCE, cursor.packed()));
            }
            sink.addAll(lines);
            queued += lines.size();
            pageToken = page.getNextPageToken();
        } while (pageToken != null && !pageToken.isEmpty());
        return queued;
    }

    private static LogStream stream(LogEntry entry) {
        return entry.getSeverity().getNumber() >= LogSeverity.ERROR_VALUE ? LogStream.STDERR : LogStream.STDOUT;
    }

    private static int rank(LogEntry entry) {
        return TaskRanks.of(entry.getResource().getLabelsOrDefault("task_name", ""));
    }

    private static String text(LogEntry entry) {
        if (entry.getPayloadCase() == LogEntry.PayloadCase.TEXT_PAYLOAD) {
            return stripNewline(entry.getTextPayload());
        }
        if (entry.hasJsonPayload()) {
            Value message = entry.getJsonPayload().getFieldsOrDefault("message", null);
            if (message != null) {
                return stripNewline(message.getStringValue());
            }
            return entry.getJsonPayload().toString();
        }
        return "";
    }

    private static String stripNewline(String text) {
        return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }
}
