package io.trainyard.backend.vertexai;

import io.trainyard.job.Job;

/**
 * Where a Vertex AI job's files live on GCS, under the resource config's {@code tempAssetsBucket} as GiGL
 * lays them out: the frozen configs Trainyard uploads for the job (one folder per Trainyard job, so two
 * jobs of the same name never overwrite each other's configs) and GiGL's trainer asset folder.
 */
record AssetFolder(String configFolder, String trainerAssets) {

    static AssetFolder of(Job job) {
        String bucket = stripTrailingSlash(job.getResource().commonComputeConfig().tempAssetsBucket());
        String jobFolder = bucket + "/" + job.getJobName() + "/";
        return new AssetFolder(jobFolder + "trainyard/" + job.getId() + "/", jobFolder + "trainer/");
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
