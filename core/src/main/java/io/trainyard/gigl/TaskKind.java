package io.trainyard.gigl;

/** The kinds of {@code taskMetadata} a GiGL task config can carry. */
public enum TaskKind {
    NODE_BASED("nodeBasedTaskMetadata"),
    NODE_ANCHOR_BASED_LINK_PREDICTION("nodeAnchorBasedLinkPredictionTaskMetadata"),
    LINK_BASED("linkBasedTaskMetadata");

    private final String fieldName;

    TaskKind(String fieldName) {
        this.fieldName = fieldName;
    }

    public String fieldName() {
        return fieldName;
    }
}
