package io.trainyard.gigl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A template task config frozen as GiGL's config populator freezes it for the trainer, checked against GiGL's
 * gigl/src/config_populator/config_populator.py (__populate_trained_model_metadata_pb) and the paths of
 * gigl/src/common/constants/gcs.py (get_trainer_asset_dir_gcs_path and the model, scripted model, eval metrics
 * and TensorBoard paths under it).
 */
class TemplateConfigTest {

    private static final String TEMPLATE = """
            # GiGL's examples are templates: no trainedModelMetadata.
            taskMetadata:
              nodeAnchorBasedLinkPredictionTaskMetadata:
                supervisionEdgeTypes: [{srcNodeType: paper, relation: cites, dstNodeType: paper}]
            trainerConfig:
              command: python -m examples.link_prediction.homogeneous_training
              trainerArgs: {num_neighbors: "[10, 10]", log_every_n_batch: "50"}
            sharedConfig:
              shouldSkipModelEvaluation: true
            featureFlags:
              should_run_glt_backend: 'True'
            """;

    private static final TrainedModelMetadata VERTEX_LAYOUT =
            TrainedModelMetadata.giglLayoutUnder("gs://perm-assets/cora_job/trainer");

    private final TemplateConfig templates = new TemplateConfig();

    @Test
    void everyUnsetOutputIsFilledAtGiglsPathsInTheTextTheTrainerReads() {
        ConfigText submitted = ConfigText.parse("taskConfig", TEMPLATE);
        TaskConfig template = TaskConfigReader.read(submitted);

        TemplateConfig.Frozen frozen = templates.fill(submitted, template, VERTEX_LAYOUT);

        TrainedModelMetadata expected = new TrainedModelMetadata("gs://perm-assets/cora_job/trainer/models/model.pt",
                "gs://perm-assets/cora_job/trainer/models/scripted_model.pt",
                "gs://perm-assets/cora_job/trainer/models/trainer_eval_metrics.json", "gs://perm-assets/cora_job/trainer/logs/");
        assertThat(frozen.task().trainedModelMetadata()).isEqualTo(expected);
        // The text says the same, and reads back to the same config.
        assertThat(TaskConfigReader.read("taskConfig", frozen.yaml())).isEqualTo(frozen.task());
        assertThat(frozen.task().withTrainedModelMetadata(template.trainedModelMetadata())).isEqualTo(template);
        assertThat(frozen.yaml()).startsWith("# Frozen by Trainyard from a template task config").contains("should_run_glt_backend: 'True'");
        // The submission's parse, shared by its readers, is left as it was read.
        assertThat(TaskConfigReader.read(submitted)).isEqualTo(template);
    }

    @Test
    void setOutputsAreKeptInTheirOwnSpellingAndAFrozenConfigPassesUnchanged() {
        String partial = TEMPLATE.replace("sharedConfig:\n", """
                sharedConfig:
                  trained_model_metadata:
                    trained_model_uri: gs://models/mine.pt
                    eval_metrics_uri: ''
                """);
        TemplateConfig.Frozen frozen = templates.fill(ConfigText.parse("taskConfig", partial), TaskConfigReader.read("taskConfig", partial),
                VERTEX_LAYOUT);

        assertThat(frozen.task().trainedModelMetadata().trainedModelUri()).isEqualTo("gs://models/mine.pt");
        assertThat(frozen.task().trainedModelMetadata().evalMetricsUri())
                .isEqualTo("gs://perm-assets/cora_job/trainer/models/trainer_eval_metrics.json");
        // A blank URI is replaced where it stands, not given a second time in the other spelling.
        assertThat(TaskConfigReader.read("taskConfig", frozen.yaml())).isEqualTo(frozen.task());

        TaskConfig alreadyFrozen = frozen.task();
        TemplateConfig.Frozen again = templates.fill(ConfigText.parse("taskConfig", frozen.yaml()), alreadyFrozen, VERTEX_LAYOUT);
        assertThat(again.yaml()).isSameAs(frozen.yaml());
        assertThat(again.task()).isSameAs(alreadyFrozen);
    }

    @Test
    void aLocalJobsLayoutIsTheSameUnderItsWorkFolder() {
        TaskConfig template = TaskConfigReader.read("taskConfig", TEMPLATE);

        TemplateConfig.Frozen frozen = templates.fill(ConfigText.parse("taskConfig", TEMPLATE), template,
                TrainedModelMetadata.giglLayoutUnder("trainer"));

        assertThat(frozen.task().trainedModelMetadata()).isEqualTo(new TrainedModelMetadata("trainer/models/model.pt",
                "trainer/models/scripted_model.pt", "trainer/models/trainer_eval_metrics.json", "trainer/logs/"));
        assertThat(frozen.yaml()).contains("trainedModelUri: trainer/models/model.pt");
    }

    /**
     * A template's text is written once and each job's URIs put into it: every job of the template must read its own
     * URIs, whatever YAML needs to write them (quotes, escapes), and the same text as a whole write would give.
     */
    @Test
    void eachJobOfATemplateReadsItsOwnUrisHoweverTheyAreWritten() {
        ConfigText submitted = ConfigText.parse("taskConfig", TEMPLATE);
        TaskConfig template = TaskConfigReader.read(submitted);
        List<String> folders = List.of("gs://perm-assets/job_a/trainer", "gs://perm-assets/job_b/trainer", "/data/with space: and #hash",
                "'quoted' \"twice\"", "*star", "tab\there", "ünïcode/ok", "123", "true", "line\nbreak");

        for (String folder : folders) {
            TrainedModelMetadata layout = TrainedModelMetadata.giglLayoutUnder(folder);
            TemplateConfig.Frozen frozen = templates.fill(submitted, template, layout);

            assertThat(TaskConfigReader.read("taskConfig", frozen.yaml()).trainedModelMetadata()).as(folder).isEqualTo(layout);
            assertThat(frozen.yaml()).as(folder).isEqualTo(TemplateConfig.write(submitted, layout.byField()));
        }
    }
}
