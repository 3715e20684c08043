package io.trainyard.agent.system;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException(command + " failed: " + output.strip());
            }
            return rows(output);
        } finally {
            process.destroy();
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
