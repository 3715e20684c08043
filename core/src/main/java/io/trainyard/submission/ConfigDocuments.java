package io.trainyard.submission;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.trainyard.core.TrainyardProperties;
import io.trainyard.gigl.ConfigText;
import io.trainyard.gigl.HydraDefaults;
import io.trainyard.gigl.SafeYamlParser;
import io.trainyard.validation.InvalidRequestException;
import org.springframework.stereotype.Component;

/**
 * Fetches a config's YAML text from where the submission says it is: inline, a local path or file:// URI under
 * one of the server's config roots ({@code trainyard.config-roots}), or a remote store some
 * {@link RemoteConfigReader} handles. A local path is checked after resolving {@code ..} and every symlink, and
 * a path outside the roots, a missing file and an unreadable one are refused in the same words, naming no path
 * of the server: the server reads files with its own rights, and a submission must not learn which files it has.
 */
@Component
public class ConfigDocuments {

    private final List<RemoteConfigReader> remoteReaders;
    private final List<Path> roots;
    private final InlineConfigs inlineConfigs = new InlineConfigs();

    public ConfigDocuments(List<RemoteConfigReader> remoteReaders, TrainyardProperties properties) {
        this.remoteReaders = remoteReaders;
        this.roots = properties.configRoots().stream().map(ConfigDocuments::realPath).toList();
    }

    /** A config document, read, and where it came from ({@code null} source for inline text). */
    record Document(ConfigText config, String source) {
    }

    Document resolve(String inlineField, String inline, String uriField, String uri, Submitter submitter) {
        boolean hasInline = inline != null && !inline.isBlank();
        boolean hasUri = uri != null && !uri.isBlank();
        if (hasInline == hasUri) {
            throw new InvalidRequestException(inlineField, "give exactly one of " + inlineField + " (YAML text) or " + uriField);
        }
        if (hasInline) {
            ConfigText known = inlineConfigs.find(inlineField, inline);
            if (known != null) {
                return new Document(known, null);
            }
            // Inline text with a defaults list is refused, so what compose returns is the text as it was read.
            return new Document(inlineConfigs.keep(HydraDefaults.compose(inlineField, null, inline, this::readUnderRoots)), null);
        }
        String source = uri.strip();
        String text = fetch(uriField, source, submitter);
        // GiGL composes a config's Hydra defaults list from the files beside it, for a local file only.
        Path local = remoteReaders.stream().anyMatch(reader -> reader.reads(source)) ? null : localPath(uriField, source);
        return new Document(HydraDefaults.compose(uriField, local, text, this::readUnderRoots), source);
    }

    /** The text of the document at {@code uri}: under a config root, or what a remote reader handles. */
    String fetch(String field, String uri, Submitter submitter) {
        for (RemoteConfigReader reader : remoteReaders) {
            if (reader.reads(uri)) {
                if (!submitter.remoteConfigsAllowed()) {
                    throw new InvalidRequestException(field, "'" + uri + "' would be read with the server's credentials, which "
                            + "this project does not allow (a project admin can allow it); give the YAML inline instead");
                }
                return reader.read(field, uri, SafeYamlParser.MAX_DOCUMENT_CHARS);
            }
        }
        if (uri.startsWith("gs://")) {
            throw new InvalidRequestException(field, "gs:// URIs need the Vertex AI backend, which this server does not have "
                    + "(set trainyard.vertex-ai.project to enable it); give the YAML inline");
        }
        return readLocal(field, localPath(field, uri));
    }

    private Path localPath(String field, String uri) {
        Path path;
        try {
            path = uri.startsWith("file:") ? Path.of(URI.create(uri)) : Path.of(uri);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(field, "'" + uri + "' is not a local path or file:// URI: " + e.getMessage());
        }
        if (!path.isAbsolute()) {
            throw new InvalidRequestException(field, "'" + uri + "' must be an absolute path: the server's working folder is not the client's");
        }
        // The lexical check first, so nothing plainly outside the roots is ever touched; then the real path, so a
        // symlink inside a root cannot lead out of it. A path that cannot be resolved (missing, or through a folder
        // the server may not enter) is refused like one outside: telling them apart would tell what exists.
        if (!underARoot(path.normalize())) {
            throw notReadable(field);
        }
        Path real;
        try {
            real = path.toRealPath();
        } catch (IOException e) {
            throw notReadable(field);
        }
        if (!underARoot(real)) {
            throw notReadable(field);
        }
        return real;
    }

    /** The one refusal of a local document that cannot be read, whatever the reason. */
    private static InvalidRequestException notReadable(String field) {
        return new InvalidRequestException(field, "is not readable for submissions: local configs are read only from files "
                + "under the server's config roots (trainyard.config-roots); give the YAML inline instead");
    }

    private boolean underARoot(Path path) {
        return roots.stream().anyMatch(path::startsWith);
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
                throw new InvalidRequestException(field, "is larger than " + SafeYamlParser.MAX_DOCUMENT_CHARS + " characters");
            }
            return new String(buffer, 0, total);
        } catch (CharacterCodingException e) {
            // Said only of a file under the roots that could be opened: nothing outside them is told apart.
            throw new InvalidRequestException(field, "is not UTF-8 text");
        } catch (IOException e) {
            // A folder, a file the server may not read: refused as a missing one is.
            throw notReadable(field);
        }
    }

    /** A config file of a Hydra defaults list: under the config roots like any local document. */
    private String readUnderRoots(String field, Path file) {
        return readLocal(field, localPath(field, file.toString()));
    }

    /** A configured root as it really is (symlinks resolved), so real paths of documents compare with it. */
    private static Path realPath(Path root) {
        try {
            return root.toAbsolutePath().normalize().toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("trainyard.config-roots names " + root + ", which cannot be read", e);
        }
    }
}
