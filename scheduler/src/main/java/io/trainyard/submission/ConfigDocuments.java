package io.trainyard.submission;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.trainyard.gigl.HydraDefaults;
import io.trainyard.gigl.SafeYamlParser;
import io.trainyard.validation.InvalidRequestException;

/**
 * Fetches a config's YAML text from where the submission says it is: inline, a local path, file://, or a
 * remote store some {@link RemoteConfigReader} handles.
 */
final class ConfigDocuments {

    private ConfigDocuments() {
    }

    /** A config document and where it came from ({@code null} source for inline text). */
    record Document(String yaml, String source) {
    }

    static Document resolve(String inlineField, String inline, String uriField, String uri,
            List<RemoteConfigReader> remoteReaders) {
        boolean hasInline = inline != null && !inline.isBlank();
        boolean hasUri = uri != null && !uri.isBlank();
        if (hasInline == hasUri) {
            throw new InvalidRequestException(inlineField, "give exactly one of " + inlineField + " (YAML text) or " + uriField);
        }
        if (hasInline) {
            return new Document(HydraDefaults.compose(inlineField, null, inline, ConfigDocuments::readLocal), null);
        }
        String source = uri.strip();
        Path local = isRemote(source, remoteReaders) ? null : localPath(uriField, source);
        String text = local == null ? fetch(uriField, source, remoteReaders) : readLocal(uriField, local);
        // GiGL composes a config's Hydra defaults list from the files beside it, for a local file only.
        return new Document(HydraDefaults.compose(uriField, local, text, ConfigDocuments::readLocal), source);
    }

    /** The text of the document at {@code uri}: a local path, file://, or what a remote reader handles. */
    static String fetch(String field, String uri, List<RemoteConfigReader> remoteReaders) {
        for (RemoteConfigReader reader : remoteReaders) {
            if (reader.reads(uri)) {
                return reader.read(field, uri, SafeYamlParser.MAX_DOCUMENT_CHARS);
            }
        }
        return readLocal(field, localPath(field, uri));
    }

    private static boolean isRemote(String uri, List<RemoteConfigReader> remoteReaders) {
        return remoteReaders.stream().anyMatch(reader -> reader.reads(uri));
    }

    private static Path localPath(String field, String uri) {
        if (uri.startsWith("gs://")) {
            throw new InvalidRequestException(field, "gs:// URIs need the Vertex AI backend, which this server does not have "
                    + "(set trainyard.vertex-ai.project to enable it); give a local path, a file:// URI or the YAML inline");
        }
        Path path;
        try {
            path = uri.startsWith("file:") ? Path.of(URI.create(uri)) : Path.of(uri);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(field, "'" + uri + "' is not a local path or file:// URI: " + e.getMessage());
        }
        if (!path.isAbsolute()) {
            throw new InvalidRequestException(field, "'" + uri + "' must be an absolute path: the server's working folder is not the client's");
        }
        return path;
    }

    private static String readLocal(String field, Path path) {
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            char[] buffer = new char[SafeYamlParser.MAX_DOCUMENT_CHARS + 1];
            int total = 0;
            int read;
            while (total < buffer.length && (read = reader.read(buffer, total, buffer.length - total)) != -1) {
                total += read;
            }
            if (total > SafeYamlParser.MAX_DOCUMENT_CHARS) {
                throw new InvalidRequestException(field, "'" + path + "' is larger than " + SafeYamlParser.MAX_DOCUMENT_CHARS + " characters");
            }
            return new String(buffer, 0, total);
        } catch (IOException e) {
            throw new InvalidRequestException(field, "cannot read '" + path + "': " + e.getMessage());
        }
    }
}
