package io.trainyard.agent.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The TensorBoard event files under a run's TensorBoard folder, at any depth (writers put runs in sub-folders),
 * found by TensorBoard's own rule: the name contains {@code tfevents}.
 */
final class EventFiles {

    /** A folder named {@code rank-3}, {@code rank_3} or {@code rank3} on the way holds rank 3's files. */
    private static final Pattern RANK_FOLDER = Pattern.compile("rank[-_]?(\\d+)");

    /**
     * An event file.
     *
     * @param name its path relative to the TensorBoard folder, with '/' separators: its key in read positions
     * @param rank the trainer process that wrote it: from a {@code rank-N} folder on its path, else 0 (trainers
     *     commonly write TensorBoard from rank 0 only)
     */
    record EventFile(Path path, String name, int rank) {
    }

    private EventFiles() {
    }

    static List<EventFile> under(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            return paths.filter(path -> path.getFileName().toString().contains("tfevents")
                            && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
                    .sorted()
                    .map(path -> eventFile(folder, path))
                    .toList();
        } catch (NoSuchFileException e) {
            return List.of(); // the trainer has not created the folder yet
        } catch (UncheckedIOException e) {
            throw e.getCause(); // a file went away during the walk: look again next time
        }
    }

    private static EventFile eventFile(Path folder, Path path) {
        Path relative = folder.relativize(path);
        int rank = 0;
        for (int i = 0; i < relative.getNameCount() - 1; i++) {
            Matcher matcher = RANK_FOLDER.matcher(relative.getName(i).toString());
            if (matcher.matches()) {
                rank = Integer.parseInt(matcher.group(1));
            }
        }
        return new EventFile(path, relative.toString().replace('\\', '/'), rank);
    }
}
