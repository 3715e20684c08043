package io.trainyard.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommandWordsTest {

    @Test
    void splitsLikeAShellWithoutRunningOne() {
        assertThat(CommandWords.split("python -m examples.link_prediction.train"))
                .containsExactly("python", "-m", "examples.link_prediction.train");
        assertThat(CommandWords.split("sh -c 'echo $HOME; rm -rf /' \"a \\\"b\\\"\" c\\ d"))
                .containsExactly("sh", "-c", "echo $HOME; rm -rf /", "a \"b\"", "c d");
        assertThatThrownBy(() -> CommandWords.split("python 'unterminated")).hasMessageContaining("unterminated");
    }
}
