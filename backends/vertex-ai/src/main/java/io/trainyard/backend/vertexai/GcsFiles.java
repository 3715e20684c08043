package io.trainyard.backend.vertexai;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.google.api.gax.paging.Page;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.trainyard.submission.RemoteConfigReader;
import io.trainyard.validation.InvalidRequestException;

/**
 * The job's files on Cloud Storage: reads {@code gs://} config documents at submission, uploads the frozen
 * configs a CustomJob reads, and deletes old trainer outputs before a training run (GiGL's semantics: every
 * set output URI and the trainer asset folder, each as an object and as a folder prefix).
 */
final class GcsFiles implements RemoteConfigReader {

    private static final String SCHEME = "gs://";

    private final Storage storage;

    GcsFiles(Storage storage) {
        this.storage = storage;
    }

    @Override
    public boolean reads(String uri) {
        return uri.startsWith(SCHEME);
    }

    @Override
    public String read(String field, String uri, int maxChars) {
        BlobId id = blobId(uri);
        Blob blob;
        try {
            blob = storage.get(id);
        } catch (StorageException e) {
            throw new InvalidRequestException(field, "cannot read '" + uri + "': " + e.getMessage());
        }
        if (blob == null) {
            throw new InvalidRequestException(field, "'" + uri + "' does not exist");
        }
        // Bytes bound the characters from above: checked before downloading a huge object.
        if (blob.getSize() != null && blob.getSize() > 4L * maxChars) {
            throw new InvalidRequestException(field, "'" + uri + "' is larger than " + maxChars + " characters");
        }
        String text = new String(blob.getContent(), StandardCharsets.UTF_8);
        if (text.length() > maxChars) {
            throw new InvalidRequestException(field, "'" + uri + "' is larger than " + maxChars + " characters");
        }
        return text;
    }

    void write(String uri, String text) {
        storage.create(BlobInfo.newBuilder(blobId(uri)).setContentType("application/yaml").build(),
                text.getBytes(StandardCharsets.UTF_8));
    }

    /** Deletes the object at each URI and everything under it as a folder. */
    void deleteAll(List<String> uris) {
        for (String uri : uris) {
            BlobId id = blobId(uri);
            storage.delete(id);
            String prefix = id.getName().endsWith("/") ? id.getName() : id.getName() + "/";
            Page<Blob> page = storage.list(id.getBucket(), Storage.BlobListOption.prefix(prefix));
            for (Blob blob : page.iterateAll()) {
                storage.delete(blob.getBlobId());
            }
        }
    }

    static BlobId blobId(String uri) {
        if (!uri.startsWith(SCHEME) || uri.indexOf('/', SCHEME.length()) < 0) {
            throw new IllegalArgumentException("'" + uri + "' is not a gs://bucket/object URI");
        }
        int slash = uri.indexOf('/', SCHEME.length());
        return BlobId.of(uri.substring(SCHEME.length(), slash), uri.substring(slash + 1));
    }
}
