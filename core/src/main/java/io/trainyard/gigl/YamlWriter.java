package io.trainyard.gigl;

import java.util.Map;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Writes a config Trainyard completed (a template's filled outputs, a composed Hydra config) back as the YAML
 * the trainer reads, as GiGL writes the configs it completes: block style, keys in document order, under a
 * comment saying what was done. Comments of the original do not survive, as they do not in GiGL's.
 */
final class YamlWriter {

    /**
     * Paths and URIs that SnakeYAML writes plain, as they are: a '/' means no YAML 1.1 type (bool, number, date,
     * null) reads them, and none of these characters, nor the first one, is an indicator. A trailing ':' would be.
     */
    private static final Pattern PLAIN_PATH = Pattern.compile("[A-Za-z0-9/_][A-Za-z0-9._~/%+=:@-]*(?<!:)");

    private YamlWriter() {
    }

    static String write(String headerComment, Map<String, Object> document) {
        return "# " + headerComment.replace("\n", "\n# ") + "\n" + yaml().dump(document);
    }

    /** {@code value} as {@link #write} writes it as a mapping's value; null if that takes more than one line. */
    static String scalar(String value) {
        // Each job's output URIs pass here; a dump costs a tenth of a submission's CPU, this check next to nothing.
        if (value.indexOf('/') >= 0 && PLAIN_PATH.matcher(value).matches()) {
            return value;
        }
        return dumpedScalar(value);
    }

    /** {@link #scalar} as SnakeYAML writes it. */
    static String dumpedScalar(String value) {
        String entry = yaml().dump(Map.of("k", value));
        String scalar = entry.substring("k: ".length(), entry.length() - 1);
        return scalar.contains("\n") ? null : scalar;
    }

    private static Yaml yaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setSplitLines(false);
        return new Yaml(new SafeConstructor(new LoaderOptions()), new Representer(options), options);
    }
}
