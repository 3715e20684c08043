package io.trainyard.protocol;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * An agent introduces itself: its host and inventory (GPUs, or CPU slots on a host without them).
 *
 * @param gpus empty on a host without GPUs
 */
public record Registration(
        @NotBlank @Size(max = 255) String host,
        @NotNull @Size(max = 64) List<@NotNull @Valid Gpu> gpus,
        @Min(1) int cpuSlots) {

    /** This host's name, as agents report it (and the server's default node id). */
    public static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
