package io.trainyard.agent.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The host's file tree as a sandboxed trainer sees it: read-only, with private folders (those the trainer's
 * identity may not enter, or the agent user's home) replaced by empty ones, through which only the paths the
 * trainer needs (its programs, its Python installation, the way to its work folder) are bound back, read-only.
 *
 * <p>Without this, a trainer switched to an unprivileged uid could not run a Python installed under a private
 * home (pyenv under {@code /root}); exposing that home whole would show it everything else in it.
 */
final class HostView {

    private enum Kind { EMPTIED, BOUND }

    private HostView() {
    }

    /**
     * The bubblewrap mount arguments, to come after {@code --ro-bind / /}: an empty folder for each private folder
     * on the way to a needed path, and the first non-private folder below it bound back (a needed folder that is
     * itself private is emptied and its entries bound back).
     *
     * @param needed absolute paths the trainer must reach (missing ones are skipped)
     * @param isPrivate whether the trainer may not see into a folder as it is
     */
    static List<String> mounts(List<Path> needed, Predicate<Path> isPrivate) {
        Map<Path, Kind> mounts = new TreeMap<>(Comparator.comparingInt(Path::getNameCount).thenComparing(Path::toString));
        for (Path path : needed) {
            if (!Files.exists(path)) {
                continue;
            }
            boolean parentEmptied = false;
            Path current = path.getRoot();
            for (Path name : path) {
                current = current.resolve(name);
                if (isPrivate.test(current)) {
                    mounts.put(current, Kind.EMPTIED);
                    parentEmptied = true;
                } else {
                    if (parentEmptied) {
                        mounts.putIfAbsent(current, Kind.BOUND);
                    }
                    parentEmptied = false;
                }
            }
            if (parentEmptied) {
                // The needed folder itself is private: what is in it is bound back, entry by entry.
                for (Path entry : entries(path)) {
                    mounts.putIfAbsent(entry, Kind.BOUND);
                }
            }
        }
        List<String> arguments = new ArrayList<>();
        mounts.forEach((path, kind) -> arguments.addAll(kind == Kind.EMPTIED
                ? List.of("--perms", "0711", "--tmpfs", path.toString())
                : List.of("--ro-bind", path.toString(), path.toString())));
        return arguments;
    }

    private static List<Path> entries(Path folder) {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.toList();
        } catch (IOException e) {
            return List.of(); // a file, or unreadable: nothing to bind back
        }
    }
}
