package io.trainyard.gigl;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.trainyard.validation.InvalidRequestException;

/**
 * GiGL composes a config whose top level holds a Hydra {@code defaults} list, from the config files under the
 * folder of the config's own file, and does so only for a local file. This is that composition for the
 * defaults lists GiGL's configs use: {@code group/option@package} and {@code group: option} entries, a
 * {@code # @package} header in a group file, and {@code _self_} (the config's own keys, last when not
 * listed). Later entries override earlier ones, mappings merged key by key, as Hydra merges them.
 */
public final class HydraDefaults {

    private static final String DEFAULTS = "defaults";
    private static final String SELF = "_self_";
    private static final String GLOBAL = "_global_";
    private static final Pattern PACKAGE_HEADER = Pattern.compile("(?m)^#\\s*@package\\s+(\\S+)\\s*$");

    private HydraDefaults() {
    }

    /** Reads a config file of a defaults list, with the limits of any submitted document. */
    @FunctionalInterface
    public interface ConfigFiles {

        /** @throws InvalidRequestException naming {@code field} when the file cannot be read */
        String read(String field, Path file);
    }

    /**
     * The config as GiGL reads it: {@code text} itself when it lists no defaults, else the composed config.
     *
     * @param field the request field the config came from
     * @param file the local file the text was read from; null for inline text or a remote document, which GiGL
     *     does not compose
     */
    public static ConfigText compose(String field, Path file, String text, ConfigFiles files) {
        ConfigText config = ConfigText.parse(field, text);
        Map<String, Object> document = config.document();
        if (!document.containsKey(DEFAULTS)) {
            return config;
        }
        if (file == null) {
            throw new InvalidRequestException(field + "." + DEFAULTS, "is a Hydra defaults list, which GiGL composes only "
                    + "for a config read from a local file: give the config as a local path or file:// URI");
        }
        Path root = file.toAbsolutePath().normalize().getParent();
        Map<String, Object> composed = new LinkedHashMap<>();
        boolean selfMerged = false;
        List<?> entries = document.get(DEFAULTS) instanceof List<?> list ? list : List.of(document.get(DEFAULTS));
        for (int i = 0; i < entries.size(); i++) {
            String entryField = field + "." + DEFAULTS + "[" + i + "]";
            if (SELF.equals(entries.get(i))) {
                merge(composed, withoutDefaults(document));
                selfMerged = true;
            } else {
                merge(composed, groupConfig(entryField, root, entries.get(i), files));
            }
        }
        if (!selfMerged) {
            merge(composed, withoutDefaults(document));
        }
        // Parsed again from the text written: the server reads exactly what the trainer will.
        return ConfigText.parse(field, YamlWriter.write("Composed by Trainyard from " + file.getFileName()
                + " and its Hydra defaults list, as GiGL composes it.", composed));
    }

    /** One entry's config file, placed at its package. */
    private static Map<String, Object> groupConfig(String field, Path root, Object entry, ConfigFiles files) {
        String option;
        String group;
        String packagePath = null;
        if (entry instanceof String text) {
            String[] optionAndPackage = text.strip().split("@", 2);
            option = optionAndPackage[0];
            packagePath = optionAndPackage.length > 1 ? optionAndPackage[1] : null;
            group = option.contains("/") ? option.substring(0, option.lastIndexOf('/')) : "";
        } else if (entry instanceof Map<?, ?> map && map.size() == 1 && map.values().iterator().next() instanceof String value) {
            String[] groupAndPackage = String.valueOf(map.keySet().iterator().next()).split("@", 2);
            group = groupAndPackage[0];
            option = group + "/" + value;
            packagePath = groupAndPackage.length > 1 ? groupAndPackage[1] : null;
        } else {
            throw new InvalidRequestException(field, "is not a defaults entry GiGL's configs use: write group/option@package, "
                    + "group: option or _self_");
        }
        Path file = root.resolve(option + ".yaml").normalize();
        if (!file.startsWith(root) || option.startsWith("/") || option.contains("..")) {
            throw new InvalidRequestException(field, "'" + option + "' must name a config in the folder of the config listing it, or below");
        }
        String text = files.read(field, file);
        Map<String, Object> config = SafeYamlParser.parseMapping(field, text);
        if (config.containsKey(DEFAULTS)) {
            throw new InvalidRequestException(field, "'" + option + "' has a defaults list of its own, which Trainyard does not compose");
        }
        if (packagePath == null) {
            Matcher header = PACKAGE_HEADER.matcher(text);
            packagePath = header.find() ? header.group(1) : group.replace('/', '.');
        }
        return placedAt(packagePath, config);
    }

    private static Map<String, Object> placedAt(String packagePath, Map<String, Object> config) {
        Map<String, Object> placed = config;
        String path = packagePath.equals(GLOBAL) ? "" : packagePath.startsWith(GLOBAL + ".")
                ? packagePath.substring(GLOBAL.length() + 1) : packagePath;
        if (path.isEmpty()) {
            return placed;
        }
        String[] keys = path.split("\\.");
        for (int i = keys.length - 1; i >= 0; i--) {
            Map<String, Object> parent = new LinkedHashMap<>();
            parent.put(keys[i], placed);
            placed = parent;
        }
        return placed;
    }

    private static Map<String, Object> withoutDefaults(Map<String, Object> document) {
        Map<String, Object> self = new LinkedHashMap<>(document);
        self.remove(DEFAULTS);
        return self;
    }

    /** Hydra's merge: mappings key by key, anything else replaced by the later value. */
    @SuppressWarnings("unchecked")
    private static void merge(Map<String, Object> into, Map<String, Object> later) {
        later.forEach((key, value) -> {
            if (into.get(key) instanceof Map<?, ?> earlier && value instanceof Map<?, ?> update) {
                Map<String, Object> merged = new LinkedHashMap<>((Map<String, Object>) earlier);
                merge(merged, (Map<String, Object>) update);
                into.put(key, merged);
            } else {
                into.put(key, value);
            }
        });
    }
}
