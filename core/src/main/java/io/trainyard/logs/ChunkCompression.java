package io.trainyard.logs;

import java.nio.charset.StandardCharsets;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * A chunk's text as it is stored: its UTF-8 bytes compressed with LZ4, and their length, which decompressing needs.
 * The server compresses, not PostgreSQL: PostgreSQL compressed each chunk with pglz as it stored it (the embedded
 * PostgreSQL has no lz4), inside the transaction that holds the job's row lock, so every batch of the job waited for it:
 * while a job printed a burst, the chunk's insert was 942 ms of the 1,626 ms its batches spent in their transactions.
 * LZ4 in Java does a 12,000-line chunk (1.4 MB) in about 1.2 ms, to a seventh of its size, and the column stores the
 * bytes as they come. LZ4's pure-Java implementation: no native library to load, no {@code Unsafe}.
 */
final class ChunkCompression {

    private static final LZ4Factory LZ4 = LZ4Factory.safeInstance();
    private static final LZ4Compressor COMPRESSOR = LZ4.fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4.safeDecompressor();

    /** A chunk's text compressed, and the length of its UTF-8 bytes. */
    record Compressed(byte[] bytes, int textBytes) {
    }

    private ChunkCompression() {
    }

    static Compressed compress(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return new Compressed(COMPRESSOR.compress(utf8), utf8.length);
    }

    static String decompress(byte[] bytes, int textBytes) {
        return new String(DECOMPRESSOR.decompress(bytes, textBytes), StandardCharsets.UTF_8);
    }
}
