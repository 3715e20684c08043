package io.trainyard.gigl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violations;

/**
 * Reads and checks a GiGL resource config with GiGL's own rules (its validator's required fields, buckets on
 * GCS, accelerator type and count consistent, one trainer resource kind, the deprecated {@code trainer_config}
 * read first), reporting every violation with its field path.
 */
public final class ResourceConfigReader {

    /** Fetches the document a {@code shared_resource_config_uri} names, as a submission's own config URIs are. */
    @FunctionalInterface
    public interface SharedConfigFetcher {

        /** @throws InvalidRequestException naming {@code field} when the document cannot be read */
        String fetch(String field, String uri);
    }

    private static final List<String> TRAINER_KINDS = List.of("vertexAiTrainerConfig", "kfpTrainerConfig",
            "localTrainerConfig", "vertexAiGraphStoreTrainerConfig", "customTrainerConfig");
    private static final List<String> DEPRECATED_TRAINER_KINDS = List.of("vertexAiTrainerConfig", "kfpTrainerConfig",
            "localTrainerConfig");
    /** GiGL's validator requires each of these to be set (check_if_shared_resource_config_valid). */
    private static final List<String> REQUIRED_COMMON_FIELDS = List.of("project", "region", "tempAssetsBucket",
            "tempRegionalAssetsBucket", "permAssetsBucket", "tempAssetsBqDatasetName", "embeddingBqDatasetName",
            "gcpServiceAccountEmail", "dataflowRunner");
    private static final List<String> BUCKETS = List.of("tempAssetsBucket", "tempRegionalAssetsBucket", "permAssetsBucket");
    private static final String NO_ACCELERATOR = "ACCELERATOR_TYPE_UNSPECIFIED";
    private static final List<String> RESERVATION_TYPES = List.of("NO_RESERVATION", "ANY_RESERVATION", "SPECIFIC_RESERVATION");

    private ResourceConfigReader() {
    }

    /**
     * @param sharedConfigs fetches the shared resource config a {@code sharedResourceConfigUri} names
     * @throws InvalidRequestException listing every violation found
     */
    public static ResourceConfig read(String field, String yaml, SharedConfigFetcher sharedConfigs) {
        return read(ConfigText.parse(field, yaml), sharedConfigs);
    }

    /**
     * @param sharedConfigs fetches the shared resource config a {@code sharedResourceConfigUri} names
     * @throws InvalidRequestException listing every violation found
     */
    public static ResourceConfig read(ConfigText config, SharedConfigFetcher sharedConfigs) {
        return read(config.field(), config.document(), sharedConfigs, true);
    }

    /**
     * The typed reading of a config stored under earlier rules (a migration): it passed the rules of its day,
     * so what later rules refuse is not refused here. Such configs name their shared resource config inline.
     */
    public static ResourceConfig readStored(String yaml) {
        return read("resourceConfig", SafeYamlParser.parseMapping("resourceConfig", yaml), (field, uri) -> {
            throw new InvalidRequestException(field, "is not read for a stored config");
        }, false);
    }

    private static ResourceConfig read(String field, Map<String, Object> document, SharedConfigFetcher sharedConfigs,
            boolean enforce) {
        Violations violations = new Violations();
        KnownFields.check(document, GiglProtos.GIGL_RESOURCE_CONFIG, field, violations);
        ConfigNode root = ConfigNode.root(field, document, violations);

        ConfigNode shared = sharedResourceConfig(root, sharedConfigs, violations);
        Map<String, String> labels = shared == null ? Map.of() : shared.child("resourceLabels").stringMap();
        ResourceConfig.CommonComputeConfig compute = null;
        if (shared != null) {
            ConfigNode common = shared.child("commonComputeConfig");
            if (common.isPresent()) {
                compute = readCommon(common);
            } else {
                common.reject("is required");
            }
        }

        // GiGL reads the deprecated top-level trainer_config first: given beside trainer_resource_config, it wins.
        ConfigNode deprecated = root.child("trainerConfig");
        TrainerResource trainer = deprecated.isPresent()
                ? readTrainer(deprecated, DEPRECATED_TRAINER_KINDS)
                : readTrainer(root.child("trainerResourceConfig"), TRAINER_KINDS);

        if (enforce) {
            violations.throwIfAny();
        }
        return new ResourceConfig(labels, compute, trainer);
    }

    /** The inline shared resource config, else the one its URI names (checked against the same proto); null if neither. */
    private static ConfigNode sharedResourceConfig(ConfigNode root, SharedConfigFetcher sharedConfigs, Violations violations) {
        ConfigNode inline = root.child("sharedResourceConfig");
        if (inline.isPresent()) {
            return inline;
        }
        ConfigNode uriNode = root.child("sharedResourceConfigUri");
        String uri = uriNode.string();
        if (uri == null || uri.isBlank()) {
            inline.reject("is required, or sharedResourceConfigUri naming it");
            return null;
        }
        try {
            Map<String, Object> document = SafeYamlParser.parseMapping(uriNode.path(), sharedConfigs.fetch(uriNode.path(), uri.strip()));
            KnownFields.check(document, GiglProtos.SHARED_RESOURCE_CONFIG, uriNode.path(), violations);
            return ConfigNode.root(uriNode.path(), document, violations);
        } catch (InvalidRequestException e) {
            e.violations().forEach(violation -> violations.add(violation.field(), violation.message()));
            return null;
        }
    }

    private static ResourceConfig.CommonComputeConfig readCommon(ConfigNode common) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : REQUIRED_COMMON_FIELDS) {
            values.put(name, common.child(name).requiredString(""));
        }
        for (String bucket : BUCKETS) {
            String value = values.get(bucket);
            if (value != null && !value.startsWith("gs://")) {
                common.child(bucket).reject("must be a gs:// bucket, got '" + value + "'");
            }
        }
        String serviceAccount = values.get("gcpServiceAccountEmail");
        if (serviceAccount != null && !serviceAccount.contains("@")) {
            common.child("gcpServiceAccountEmail").reject("must be a service account email address");
        }
        return new ResourceConfig.CommonComputeConfig(values.get("project"), values.get("region"),
                values.get("tempAssetsBucket"), values.get("tempRegionalAssetsBucket"), values.get("permAssetsBucket"),
                serviceAccount);
    }

    /** The kind the section holds (a second one is a oneof violation, reported by {@link KnownFields}). */
    private static TrainerResource readTrainer(ConfigNode section, List<String> kinds) {
        for (String kind : kinds) {
            ConfigNode node = section.child(kind);
            if (node.isPresent()) {
                return readKind(kind, node);
            }
        }
        section.reject((section.isPresent() ? "must hold a trainer resource kind: one of " : "is required: one of ") + kinds);
        return null;
    }

    private static TrainerResource readKind(String kind, ConfigNode node) {
        return switch (kind) {
            case "localTrainerConfig" -> {
                Long workers = node.child("numWorkers").integer(0);
                if (workers == null || workers == 0) {
                    node.child("numWorkers").reject("is required: GiGL's validator needs the number of trainer processes");
                }
                yield new TrainerResource.Local(workers == null || workers == 0 ? 1 : workers.intValue());
            }
            case "vertexAiTrainerConfig" -> readVertex(node);
            case "vertexAiGraphStoreTrainerConfig" -> {
                ConfigNode storage = node.child("graphStorePool");
                ConfigNode compute = node.child("computePool");
                for (ConfigNode pool : List.of(storage, compute)) {
                    if (!pool.isPresent()) {
                        pool.reject("is required");
                    }
                }
                Long localWorldSize = node.child("computeClusterLocalWorldSize").integer(0);
                yield new TrainerResource.VertexAiGraphStore(
                        storage.isPresent() ? readVertex(storage) : null,
                        compute.isPresent() ? readVertex(compute) : null,
                        localWorldSize == null ? 0 : localWorldSize.intValue());
            }
            default -> new TrainerResource.Other(kind);
        };
    }

    /** GiGL's validator: machine type, GPU type and replicas set, a GPU count exactly when there is a GPU type. */
    private static TrainerResource.VertexAi readVertex(ConfigNode node) {
        String machineType = node.child("machineType").requiredString("");
        String gpuType = node.child("gpuType").requiredString(" (" + NO_ACCELERATOR + " for a machine without GPUs)");
        Long gpuLimit = node.child("gpuLimit").integer(0);
        Long replicas = node.child("numReplicas").integer(0);
        if (replicas == null || replicas == 0) {
            node.child("numReplicas").reject("is required: at least 1");
        }
        if (NO_ACCELERATOR.equals(gpuType) && gpuLimit != null && gpuLimit > 0) {
            node.child("gpuLimit").reject("must be 0 when gpuType is " + NO_ACCELERATOR + ", got " + gpuLimit);
        }
        if (gpuType != null && !NO_ACCELERATOR.equals(gpuType) && (gpuLimit == null || gpuLimit == 0)) {
            node.child("gpuLimit").reject("must be at least 1 when gpuType is " + gpuType);
        }
        return new TrainerResource.VertexAi(machineType, gpuType == null ? NO_ACCELERATOR : gpuType,
                gpuLimit == null ? 0 : gpuLimit.intValue(), replicas == null || replicas == 0 ? 1 : replicas.intValue(),
                setOrNull(node.child("timeout")), node.child("gcpRegionOverride").string(),
                node.child("schedulingStrategy").string(), intOrNull(setOrNull(node.child("bootDiskSizeGb"))),
                readReservationAffinity(node.child("reservationAffinity")), node.child("tensorboardResourceName").string());
    }

    /** A uint32 field of GiGL's: zero is proto3's unset, so GiGL takes its default for it. */
    private static Long setOrNull(ConfigNode node) {
        Long value = node.integer(0);
        return value == null || value == 0 ? null : value;
    }

    private static Integer intOrNull(Long value) {
        return value == null ? null : Math.toIntExact(Math.min(value, Integer.MAX_VALUE));
    }

    /** GiGL's rules: a type from the three Vertex knows; reservation names with, and only with, SPECIFIC_RESERVATION. */
    private static TrainerResource.ReservationAffinity readReservationAffinity(ConfigNode node) {
        if (!node.isPresent()) {
            return null;
        }
        String type = node.child("type").string();
        List<String> names = node.child("reservationResourceNames").stringList();
        if (type == null || type.isBlank()) {
            if (!names.isEmpty()) {
                node.child("type").reject("is required when reservationResourceNames is set: SPECIFIC_RESERVATION");
            }
            return null;
        }
        if (!RESERVATION_TYPES.contains(type)) {
            node.child("type").reject("must be one of " + RESERVATION_TYPES + ", got '" + type + "'");
        } else if (type.equals("SPECIFIC_RESERVATION") && names.isEmpty()) {
            node.child("reservationResourceNames").reject("needs at least one reservation for SPECIFIC_RESERVATION");
        } else if (!type.equals("SPECIFIC_RESERVATION") && !names.isEmpty()) {
            node.child("reservationResourceNames").reject("must be empty for " + type);
        }
        return new TrainerResource.ReservationAffinity(type, List.copyOf(names));
    }
}
