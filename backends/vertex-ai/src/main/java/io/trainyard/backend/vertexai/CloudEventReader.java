package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.api.gax.paging.Page;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import io.trainyard.protocol.ScalarSeriesBuilder;
import io.trainyard.scalars.ScalarIngest;
import io.trainyard.tfevents.EventFileReader;
import io.trainyard.tfevents.Scalar;

/**
 * Reads the scalars of a Vertex AI job's TensorBoard event files on Cloud Storage (its {@code tensorboardLogsUri})
 * while it runs, and stores them with the files' read positions, so reading resumes after the last stored record,
 * also on another server. Each listing and each object read waits for a permit of the storage read quota.
 * Objects are found at any depth under the folder by TensorBoard's rule (the name contains {@code tfevents});
 * points count as rank 0's.
 */
final class CloudEventReader {

    private static final int POINTS_PER_STORE = 16_000;

    private final Storage storage;
    private final QuotaLimiter reads;
    private final String quotaKey;
    private final BlobId folder;
    private final UUID jobId;
    private final int attempt;
    private final ScalarIngest ingest;
    private final Map<String, Long> positions;

    CloudEventReader(Storage storage, QuotaLimiter reads, String quotaKey, String folderUri, UUID jobId, int attempt,
            ScalarIngest ingest, Map<String, Long> positions) {
        this.storage = storage;
        this.reads = reads;
        this.quotaKey = quotaKey;
        this.folder = GcsFiles.blobId(folderUri.endsWith("/") ? folderUri : folderUri + "/");
        this.jobId = jobId;
        this.attempt = attempt;
        this.ingest = ingest;
        this.positions = new HashMap<>(positions);
    }

    /**
     * Stores what the event files hold past the stored positions.
     *
     * @param complete the job has ended: a record cut short at the end of a file is skipped, not waited for
     * @return how many points were stored
     */
    int readAll(boolean complete) throws InterruptedException, IOException {
        List<Blob> files = new ArrayList<>();
        try (QuotaLimiter.Permit permit = reads.acquire(quotaKey)) {
            Page<Blob> page = storage.list(folder.getBucket(), Storage.BlobListOption.prefix(folder.getName()));
            for (Blob blob : page.iterateAll()) {
                String name = blob.getName().substring(folder.getName().length());
                if (name.substring(name.lastIndexOf('/') + 1).contains("tfevents")) {
                    files.add(blob);
                }
            }
        }
        int stored = 0;
        for (Blob blob : files) {
            String name = blob.getName().substring(folder.getName().length());
            while (blob.getSize() > positions.getOrDefault(name, 0L)) {
                long from = positions.getOrDefault(name, 0L);
                EventFileReader.Read read;
                try (QuotaLimiter.Permit permit = reads.acquire(quotaKey);
                        BlobChannel channel = new BlobChannel(storage.reader(blob.getBlobId()), blob.getSize())) {
                    read = EventFileReader.read(channel, name, from, POINTS_PER_STORE, complete);
                }
                if (read.offsetAfter() == from) {
                    break;
                }
                Map<String, ScalarSeriesBuilder> series = new LinkedHashMap<>();
                for (Scalar scalar : read.scalars()) {
                    series.computeIfAbsent(scalar.tag(), tag -> new ScalarSeriesBuilder(tag, 0))
                            .add(scalar.step(), scalar.wallTime(), scalar.value());
                }
                ingest.store(jobId, attempt, series.values().stream().map(ScalarSeriesBuilder::build).toList(),
                        Map.of(name, read.offsetAfter()), read.skipped());
                positions.put(name, read.offsetAfter());
                stored += read.scalars().size();
            }
        }
        return stored;
    }
}
