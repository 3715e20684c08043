package io.trainyard.backend.vertexai;

import java.util.UUID;

import io.trainyard.job.JobSpec;

/**
 * Where a Vertex AI job's files live on GCS, under the resource config's {@code tempAssetsBucket} as GiGL
 * lays them out: the frozen configs Trainyard uploads for the job (one folder per Trainyard job, so two
 * jobs of the same name never overwrite each other's configs) and GiGL's trainer asset folder.
 */
record AssetFolder(String configFolder, String trainerAssets) {

    static AssetFolder of(UUID jobId, JobSpec spec) {
        String bucket = stripTrailingSlash(spec.resource().commonComputeConfig().tempAssetsBucket());
        String jobFolder = bucket + "/" + spec.jobName() + "/";
        return new AssetFolder(jobFolder + "trainyard/" + jobId + "/", jobFolder + "trainer/");
    }

    String taskConfigUri() {
        return configFolder + "frozen_task_config.yaml";
    }

    String resourceConfigUri() {
        return configFolder + "resource_config.yaml";
    }

    private static String stripTrailingSlash(String uri) {
        return uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
    }
}
