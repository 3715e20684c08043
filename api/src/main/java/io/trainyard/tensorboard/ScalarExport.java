package io.trainyard.tensorboard;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.trainyard.core.TrainyardProperties;
import io.trainyard.scalars.ScalarPoint;
import io.trainyard.scalars.ScalarStore;
import io.trainyard.tfevents.EventFileWriter;
import org.springframework.stereotype.Component;

/**
 * Writes the scalars stored for a job into event files of the server's own, one folder per attempt (and rank,
 * beyond rank 0), under {@code <data-dir>/tensorboard/<job>}: TensorBoard reads them there whichever host ran
 * the job, since agents ship points to the server and nothing else needs to reach the agent's disk. Each export
 * appends the chunks stored since the last one; the first export of a job in this server process starts the
 * folder afresh.
 */
@Component
public class ScalarExport {

    private static final int CHUNKS_PER_READ = 256;

    private final ScalarStore store;
    private final Path root;
    private final Map<UUID, Long> exportedUpTo = new ConcurrentHashMap<>();

    public ScalarExport(ScalarStore store, TrainyardProperties properties) {
        this.store = store;
        this.root = properties.dataDir().resolve("tensorboard");
    }

    /** The job's folder (as of its last export). */
    public Path folder(UUID jobId) {
        return root.resolve(jobId.toString());
    }

    /** The job's folder, holding every scalar stored for it so far. */
    public synchronized Path export(UUID jobId) {
        Path folder = folder(jobId);
        try {
            Long upTo = exportedUpTo.get(jobId);
            if (upTo == null) {
                deleteRecursively(folder);
                upTo = 0L;
            }
            Files.createDirectories(folder);
            Map<String, EventFileWriter> writers = new HashMap<>();
            try {
                while (true) {
                    List<ScalarStore.Chunk> chunks = store.chunksAfter(jobId, upTo, CHUNKS_PER_READ);
                    for (ScalarStore.Chunk chunk : chunks) {
                        EventFileWriter writer = writers.computeIfAbsent(run(chunk), run -> open(folder.resolve(run)));
                        for (ScalarPoint point : chunk.points()) {
                            writer.scalar(chunk.tag(), point.step(), point.wallTime(), point.value());
                        }
                        upTo = chunk.id();
                    }
                    if (chunks.size() < CHUNKS_PER_READ) {
                        break;
                    }
                }
            } finally {
                for (EventFileWriter writer : writers.values()) {
                    writer.close();
                }
            }
            exportedUpTo.put(jobId, upTo);
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the TensorBoard files of job " + jobId + " in " + folder, e);
        }
    }

    /** TensorBoard's run name (a folder under the job's) of a chunk. */
    private static String run(ScalarStore.Chunk chunk) {
        return "attempt-" + chunk.attempt() + (chunk.rank() == 0 ? "" : "/rank-" + chunk.rank());
    }

    /** The run's event file, opened for appending; a new one starts with its file_version event. */
    private static EventFileWriter open(Path runFolder) {
        try {
            Files.createDirectories(runFolder);
            Path file = runFolder.resolve("events.out.tfevents.trainyard");
            boolean created = !Files.exists(file);
            OutputStream out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND), 1 << 16);
            return created ? new EventFileWriter(out, System.currentTimeMillis() / 1000.0) : EventFileWriter.appending(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
