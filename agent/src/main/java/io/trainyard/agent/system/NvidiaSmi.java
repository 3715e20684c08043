package io.trainyard.agent.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs {@code nvidia-smi --query-gpu=…} and answers its CSV rows, each field stripped. */
public final class NvidiaSmi {

    private static final long TIMEOUT_SECONDS = 10;

    private final String command;

    /** @param command the program: {@code nvidia-smi}, or a path to it (a stand-in in tests) */
    public NvidiaSmi(String command) {
        this.command = command;
    }

    public String command() {
        return command;
    }

    /**
     * @param fields e.g. {@code index,name,memory.total}
     * @throws IOException if it cannot run, fails, or takes longer than 10 s
     */
    public List<String[]> query(String fields) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command, "--query-gpu=" + fields, "--format=csv,noheader,nounits")
                .redirectErrorStream(true).start();
        // Read beside the wait: a hung nvidia-smi keeps its output open, and reading first would wait for ever.
        FutureTask<byte[]> output = new FutureTask<>(process.getInputStream()::readAllBytes);
        Thread.ofVirtual().name("nvidia-smi-output").start(output);
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException(command + " did not answer within " + TIMEOUT_SECONDS + " s");
            }
            String text = new String(output.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IOException(command + " failed: " + text.strip());
            }
            return rows(text);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot read what " + command + " printed", e);
        } finally {
            // Its output closes with it, which ends the reading thread.
            process.destroyForcibly();
        }
    }

    static List<String[]> rows(String csv) {
        List<String[]> rows = new ArrayList<>();
        for (String line : csv.strip().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split(",");
            for (int i = 0; i < fields.length; i++) {
                fields[i] = fields[i].strip();
            }
            rows.add(fields);
        }
        return rows;
    }
}
