package io.trainyard.gigl;

import java.util.List;
import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violations;

/**
 * Reads and checks a GiGL resource config with GiGL's own rules (shared compute config complete, buckets
 * on GCS, exactly one trainer resource kind, accelerator type and count consistent), reporting every
 * violation with its field path.
 */
public final class ResourceConfigReader {

    private static final List<String> TRAINER_KINDS = List.of("vertexAiTrainerConfig",
            "vertexAiGraphStoreTrainerConfig", "localTrainerConfig", "customTrainerConfig", "kfpTrainerConfig");
    private static final String NO_ACCELERATOR = "ACCELERATOR_TYPE_UNSPECIFIED";
    private static final List<String> RESERVATION_TYPES = List.of("NO_RESERVATION", "ANY_RESERVATION", "SPECIFIC_RESERVATION");

    private ResourceConfigReader() {
    }

    /** @throws InvalidRequestException listing every violation found */
    public static ResourceConfig read(String field, String yaml) {
        Map<String, Object> document = SafeYamlParser.parseMapping(field, yaml);
        Violations violations = new Violations();
        ConfigNode root = ConfigNode.root(field, document, violations);

        ConfigNode shared = root.child("sharedResourceConfig");
        if (!shared.isPresent()) {
            shared.reject("is required");
        }
        Map<String, String> labels = shared.child("resourceLabels").stringMap();
        ConfigNode common = shared.child("commonComputeConfig");
        if (shared.isPresent() && !common.isPresent()) {
            common.reject("is required");
        }
        ResourceConfig.CommonComputeConfig compute = common.isPresent() ? readCommon(common) : null;

        // GiGL still accepts the deprecated top-level trainer_config and treats it as trainer_resource_config.
        ConfigNode trainerSection = root.child("trainerResourceConfig");
        ConfigNode deprecated = root.child("trainerConfig");
        if (trainerSection.isPresent() && deprecated.isPresent()) {
            deprecated.reject("is the deprecated name of trainerResourceConfig; give only one of them");
        }
        TrainerResource trainer = readTrainer(trainerSection.isPresent() ? trainerSection : deprecated, root);

        violations.throwIfAny();
        return new ResourceConfig(labels, compute, trainer);
    }

    private static ResourceConfig.CommonComputeConfig readCommon(ConfigNode common) {
        String required = "";
        ResourceConfig.CommonComputeConfig compute = new ResourceConfig.CommonComputeConfig(
                common.child("project").requiredString(required),
                common.child("region").requiredString(required),
                readBucket(common.child("tempAssetsBucket")),
                readBucket(common.child("tempRegionalAssetsBucket")),
                readBucket(common.child("permAssetsBucket")),
                common.child("gcpServiceAccountEmail").requiredString(required));
        if (compute.gcpServiceAccountEmail() != null && !compute.gcpServiceAccountEmail().contains("@")) {
            common.child("gcpServiceAccountEmail").reject("must be a service account email address");
        }
        return compute;
    }

    private static String readBucket(ConfigNode node) {
        String bucket = node.requiredString("");
        if (bucket != null && !bucket.startsWith("gs://")) {
            node.reject("must be a gs:// bucket, got '" + bucket + "'");
        }
        return bucket;
    }

    private static TrainerResource readTrainer(ConfigNode section, ConfigNode root) {
        if (!section.isPresent()) {
            root.child("trainerResourceConfig").reject("is required: one of " + TRAINER_KINDS);
            return null;
        }
        List<String> kinds = section.keys().stream().toList();
        for (String key : kinds) {
            if (!ConfigNode.isOneOf(key, TRAINER_KINDS)) {
                section.reject("has an unknown trainer resource kind '" + key + "'; expected one of " + TRAINER_KINDS);
            }
        }
        List<String> known = kinds.stream().filter(key -> ConfigNode.isOneOf(key, TRAINER_KINDS)).toList();
        if (known.size() > 1) {
            section.reject("must hold exactly one trainer resource kind, found " + known);
            return null;
        }
        if (known.isEmpty()) {
            if (kinds.isEmpty()) {
                section.reject("must hold one trainer resource kind: one of " + TRAINER_KINDS);
            }
            return null;
        }
        for (String kind : TRAINER_KINDS) {
            ConfigNode node = section.child(kind);
            if (node.isPresent()) {
                return readKind(kind, node);
            }
        }
        return null;
    }

    private static TrainerResource readKind(String kind, ConfigNode node) {
        return switch (kind) {
            case "localTrainerConfig" -> {
                Long workers = node.child("numWorkers").integer(1);
                yield new TrainerResource.Local(workers == null ? 1 : workers.intValue());
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

    private static TrainerResource.VertexAi readVertex(ConfigNode node) {
        String machineType = node.child("machineType").requiredString("");
        String gpuType = node.child("gpuType").string();
        Long gpuLimit = node.child("gpuLimit").integer(0);
        Long replicas = node.child("numReplicas").integer(1);
        Long timeout = node.child("timeout").integer(1);
        Long bootDisk = node.child("bootDiskSizeGb").integer(1);
        boolean noAccelerator = gpuType == null || gpuType.isBlank() || gpuType.equals(NO_ACCELERATOR);
        if (noAccelerator && gpuLimit != null && gpuLimit > 0) {
            node.child("gpuLimit").reject("must be 0 when gpuType is " + NO_ACCELERATOR + " or absent, got " + gpuLimit);
        }
        if (!noAccelerator && (gpuLimit == null || gpuLimit == 0)) {
            node.child("gpuLimit").reject("must be at least 1 when gpuType is " + gpuType);
        }
        return new TrainerResource.VertexAi(machineType, noAccelerator ? NO_ACCELERATOR : gpuType,
                gpuLimit == null ? 0 : gpuLimit.intValue(), replicas == null ? 1 : replicas.intValue(), timeout,
                node.child("gcpRegionOverride").string(), node.child("schedulingStrategy").string(),
                bootDisk == null ? null : bootDisk.intValue(), readReservationAffinity(node.child("reservationAffinity")),
                node.child("tensorboardResourceName").string());
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
