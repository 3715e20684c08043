package io.trainyard.backend.vertexai;

import io.trainyard.gigl.ResourceConfig;
import io.trainyard.job.Job;
import io.trainyard.launch.JobFiles;

/**
 * Where a Vertex AI job's files live on GCS: the frozen configs Trainyard uploads for the job, under the
 * resource config's {@code tempAssetsBucket} (one folder per Trainyard job, so two jobs of the same name never
 * overwrite each other's configs), and GiGL's trainer asset folder under its {@code permAssetsBucket}.
 */
record AssetFolder(String configFolder, String trainerAssets) {

    static AssetFolder of(Job job) {
        String temp = stripTrailingSlash(job.getResource().commonComputeConfig().tempAssetsBucket());
        return new AssetFolder(temp + "/" + job.getJobName() + "/trainyard/" + job.getId() + "/",
                trainerAssetFolder(job.getJobName(), job.getResource()) + "/");
    }

    /** GiGL's trainer asset folder of a job: {@code <permAssetsBucket>/<job name>/trainer}. */
    static String trainerAssetFolder(String jobName, ResourceConfig resource) {
        return stripTrailingSlash(resource.commonComputeConfig().permAssetsBucket()) + "/" + jobName + "/trainer";
    }

    /** The job's files as its containers are told of them. */
    JobFiles files() {
        return new JobFiles(taskConfigUri(), resourceConfigUri(), trainerAssets);
    }

    String taskConfigUri() {
        return configFolder + "frozen_task_config.yaml";
    }

    String resourceConfigUri() {
        return configFolder + "resource_config.yaml";
    }

    static String stripTrailingSlash(String uri) {
        return uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
    }
}
