package io.trainyard.gigl;

import java.util.Map;

/**
 * A GiGL resource config ({@code GiglResourceConfig}) as far as the trainer is concerned. Inferencer and
 * preprocessor sections may be present and are ignored.
 */
public record ResourceConfig(
        Map<String, String> resourceLabels,
        CommonComputeConfig commonComputeConfig,
        TrainerResource trainer) {

    /** {@code sharedResourceConfig.commonComputeConfig}. */
    public record CommonComputeConfig(String project, String region, String tempAssetsBucket,
            String tempRegionalAssetsBucket, String permAssetsBucket, String gcpServiceAccountEmail) {
    }
}
