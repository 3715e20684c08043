package io.trainyard.submission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import io.trainyard.gigl.ConfigText;
import org.junit.jupiter.api.Test;

class InlineConfigsTest {

    private static final String TEXT = """
            trainerConfig:
              trainerArgs:
                num_neighbors: "[10, 10]"
              command: python -m trainer
            featureFlags: [a, b]
            """;

    private final InlineConfigs configs = new InlineConfigs();

    @Test
    void theSameTextFromTheSameFieldIsReadOnce() {
        ConfigText kept = configs.keep(ConfigText.parse("taskConfig", TEXT));

        assertThat(configs.find("taskConfig", TEXT)).isSameAs(kept);
        assertThat(kept.document()).isEqualTo(ConfigText.parse("taskConfig", TEXT).document());
        // The field is the root of every path a violation names: another field's reading is another reading.
        assertThat(configs.find("resourceConfig", TEXT)).isNull();
        assertThat(configs.find("taskConfig", TEXT + "# changed\n")).isNull();
    }

    @SuppressWarnings("unchecked")
    @Test
    void noReaderCanChangeWhatTheNextSubmissionReads() {
        ConfigText kept = configs.keep(ConfigText.parse("taskConfig", TEXT));
        Map<String, Object> trainer = (Map<String, Object>) kept.document().get("trainerConfig");
        Map<String, Object> args = (Map<String, Object>) trainer.get("trainerArgs");

        assertThatThrownBy(() -> kept.document().remove("featureFlags")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> args.put("num_neighbors", "[1]")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<Object>) kept.document().get("featureFlags")).add("c"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(List.copyOf(kept.document().keySet())).containsExactly("trainerConfig", "featureFlags");
    }
}
