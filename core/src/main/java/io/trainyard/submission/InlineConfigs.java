package io.trainyard.submission;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.trainyard.gigl.ConfigText;

/**
 * Inline configs already read, by request field and text. Clients submit the same config text again and again
 * (a template, a sweep's shared resource config), and parsing it was the largest share of a submission's CPU
 * after HTTP itself. Only a config that reads the same whatever else the server holds is kept: inline text
 * without a Hydra defaults list, whose composition would read files that may change. The documents kept are
 * unmodifiable, so no reader of one submission can change what the next one reads.
 */
final class InlineConfigs {

    /** Characters of config text kept at most, about twice that in bytes. */
    private static final long MAX_CHARS = 8L * 1024 * 1024;

    private record Key(String field, String text) {
    }

    private final Cache<Key, ConfigText> parsed = Caffeine.newBuilder()
            .maximumWeight(MAX_CHARS)
            .weigher((Key key, ConfigText config) -> key.text().length())
            .build();

    /** The config read before from the same field and text; null if none was kept. */
    ConfigText find(String field, String text) {
        return parsed.getIfPresent(new Key(field, text));
    }

    /** Keeps a config read from inline text that names no defaults list; returns what later finds will return. */
    ConfigText keep(ConfigText config) {
        ConfigText frozen = new ConfigText(config.field(), config.yaml(), unmodifiable(config.document()));
        parsed.put(new Key(config.field(), config.yaml()), frozen);
        return frozen;
    }

    @SuppressWarnings("unchecked")
    private static <T> T unmodifiable(T node) {
        if (node instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(key, unmodifiable(value)));
            return (T) Collections.unmodifiableMap(copy);
        }
        if (node instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(value -> copy.add(unmodifiable(value)));
            return (T) Collections.unmodifiableList(copy);
        }
        return node;
    }
}
