package io.trainyard.protocol;

/**
 * The names of jobs' system metric series, wherever they are measured (an agent's {@code nvidia-smi} and
 * {@code /proc}, Cloud Monitoring for Vertex AI): the device, then the measure with its unit.
 */
public final class SystemMetricNames {

    public static final String UTILIZATION_PERCENT = "utilization_percent";
    public static final String MEMORY_USED_BYTES = "memory_used_bytes";
    public static final String POWER_WATTS = "power_watts";
    public static final String TEMPERATURE_CELSIUS = "temperature_celsius";
    /** CPU time over wall time since the previous sample: 100 is one core busy. */
    public static final String CPU_PERCENT = "cpu_percent";
    public static final String RSS_BYTES = "rss_bytes";
    /** Bytes read from storage since the worker started (a counter). */
    public static final String READ_BYTES = "read_bytes";
    public static final String WRITE_BYTES = "write_bytes";

    private SystemMetricNames() {
    }

    /** A GPU's series, by its index on the host: {@code gpu0/utilization_percent}. */
    public static String gpu(int index, String measure) {
        return "gpu" + index + "/" + measure;
    }

    /** A worker process' series (with all it forked), by its rank: {@code rank0/cpu_percent}. */
    public static String worker(int rank, String measure) {
        return "rank" + rank + "/" + measure;
    }
}
