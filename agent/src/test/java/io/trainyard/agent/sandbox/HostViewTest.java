package io.trainyard.agent.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trainer switched to another uid must still reach a Python installed under a private home (pyenv under
 * /root), and nothing else of that home.
 */
class HostViewTest {

    @TempDir
    Path host;

    @Test
    void aPrivateFolderOnTheWayIsEmptiedAndOnlyTheFolderBelowItOnTheWayIsBoundBack() throws Exception {
        Path home = Files.createDirectories(host.resolve("root"));
        Path python = Files.createDirectories(home.resolve(".pyenv/versions/3.11/bin"));
        Files.createDirectories(home.resolve(".ssh"));

        List<String> mounts = HostView.mounts(List.of(python), home::equals);

        assertThat(mounts).containsExactly("--perms", "0711", "--tmpfs", home.toString(),
                "--ro-bind", home.resolve(".pyenv").toString(), home.resolve(".pyenv").toString());
    }

    @Test
    void privateFoldersNestedOnTheWayAreEmptiedInTurnAndPathsWithNoPrivateFolderNeedNothing() throws Exception {
        Path outer = Files.createDirectories(host.resolve("outer"));
        Path inner = Files.createDirectories(outer.resolve("shared/inner"));
        Path needed = Files.createDirectories(inner.resolve("tools/bin"));
        Path open = Files.createDirectories(host.resolve("open/bin"));

        List<String> mounts = HostView.mounts(List.of(needed, open, host.resolve("missing")),
                folder -> folder.equals(outer) || folder.equals(inner));

        assertThat(String.join(" ", mounts)).isEqualTo(String.join(" ",
                "--perms 0711 --tmpfs", outer.toString(),
                "--ro-bind", outer.resolve("shared").toString(), outer.resolve("shared").toString(),
                "--perms 0711 --tmpfs", inner.toString(),
                "--ro-bind", inner.resolve("tools").toString(), inner.resolve("tools").toString()));
    }

    @Test
    void aNeededFolderThatIsItselfPrivateIsEmptiedAndItsEntriesBoundBack() throws Exception {
        Path tools = Files.createDirectories(host.resolve("tools"));
        Files.writeString(tools.resolve("nvidia-smi"), "#!/bin/sh\n");

        List<String> mounts = HostView.mounts(List.of(tools), tools::equals);

        assertThat(mounts).containsExactly("--perms", "0711", "--tmpfs", tools.toString(),
                "--ro-bind", tools.resolve("nvidia-smi").toString(), tools.resolve("nvidia-smi").toString());
    }
}
