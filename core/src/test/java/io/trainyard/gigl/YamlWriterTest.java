package io.trainyard.gigl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class YamlWriterTest {

    /** The shortcut for paths and URIs must write each value exactly as SnakeYAML would, or leave it to SnakeYAML. */
    @Test
    void pathsAndUrisAreWrittenAsSnakeYamlWritesThem() {
        List<String> values = List.of("gs://perm-assets/job_a/trainer/models/model.pt", "/tmp/trainyard/jobs/4f2c/trainer/logs/",
                "file:///data/x.pt", "hdfs://namenode:8020/p", "s3://b/k=v/a+b/%20/~u/@v", "a/b:", "a/b: c", "@x/y", "-x/y", "---/x",
                ".../x", "1/2", "2026-11-29/x", "./relative/path", "_/x", "x/#y", "x/ #y", "x/[y]", "x/{y}", "x/y,z", "x/*y", "!x/y",
                "x/y'z", "x/\"y\"", "%x/y", "~/x", "~", "/", "//", "x/y\tz", "x/ünï", "true/false", "null/x", "0x1F/x", ":x/y", "x/:y",
                "x/y:", "=/x", "<</x", "x/y?", "?x/y", "|x/y", ">x/y", "&x/y", "`x/y");
        for (String value : values) {
            assertThat(YamlWriter.scalar(value)).as(value).isEqualTo(YamlWriter.dumpedScalar(value));
        }
    }
}
