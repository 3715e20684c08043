package io.trainyard.agent.trainer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GiGL deletes a trainer's old outputs before a run that trains, so a retry never mixes old and new
 * assets: every set {@code trainedModelMetadata} URI and the trainer asset folder. Relative paths resolve
 * against the job's work folder, which is the trainer's working directory.
 */
public final class TrainerOutputs {

    private TrainerOutputs() {
    }

    /** The local paths of these URIs (a run's {@link io.trainyard.launch.LaunchSpec#outputsToClear()}). */
    public static List<Path> resolveAll(List<String> uris, WorkFolder folder) {
        return uris.stream().map(uri -> resolve(uri, folder)).toList();
    }

    /**
     * Where each set output lands, by trainedModelMetadata field, as an absolute URI (gs:// ones as they are).
     *
     * @param outputs the URIs as the task config gives them, by field
     */
    public static Map<String, String> uris(Map<String, String> outputs, WorkFolder folder) {
        Map<String, String> uris = new LinkedHashMap<>();
        outputs.forEach((field, uri) ->
                uris.put(field, uri.startsWith("gs://") ? uri : resolve(uri, folder).toUri().toString()));
        return uris;
    }

    /** The local path of an output URI (a plain path or file://); gs:// is not local. */
    public static Path resolve(String uri, WorkFolder folder) {
        if (uri.startsWith("gs://")) {
            throw new IllegalArgumentException("gs:// outputs need the Vertex AI backend");
        }
        Path path = uri.startsWith("file:") ? Path.of(URI.create(uri)) : Path.of(uri);
        return folder.root().resolve(path).normalize();
    }

    public static void clear(List<Path> paths) throws IOException {
        for (Path path : paths) {
            if (path.getNameCount() < 2) {
                throw new IOException("refusing to delete " + path + ": too close to the filesystem root");
            }
            deleteRecursively(path);
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException error) throws IOException {
                if (error != null && !(error instanceof NoSuchFileException)) {
                    throw error;
                }
                Files.deleteIfExists(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
