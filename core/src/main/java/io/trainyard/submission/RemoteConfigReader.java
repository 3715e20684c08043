package io.trainyard.submission;

/**
 * Reads config documents from a remote store (e.g. {@code gs://}, through the Vertex AI backend's Cloud
 * Storage client). A server without one refuses such URIs at submission.
 */
public interface RemoteConfigReader {

    /** Whether this reader handles the URI, e.g. by its scheme. */
    boolean reads(String uri);

    /**
     * The document's text, at most {@code maxChars} characters.
     *
     * @throws io.trainyard.validation.InvalidRequestException naming {@code field} when the document cannot be read
     *     or is larger than {@code maxChars}
     */
    String read(String field, String uri, int maxChars);
}
