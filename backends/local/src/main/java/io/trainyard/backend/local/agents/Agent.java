package io.trainyard.backend.local.agents;

import java.time.Instant;
import java.util.List;

import io.trainyard.protocol.Gpu;
import io.trainyard.protocol.GpuSample;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

/**
 * A host that runs jobs, with its GPUs or CPU slots and the lease it renews by heartbeat. Its id is the
 * node id that jobs placed on it carry.
 */
@Entity
@Table(name = "agents")
public class Agent {

    @Id
    private String id;

    @Column(nullable = false)
    private String host;

    @Convert(converter = GpuListConverter.class)
    @ColumnTransformer(write = "?::jsonb")
    @Column(columnDefinition = "jsonb")
    private List<Gpu> gpus;

    @Column(name = "cpu_slots")
    private int cpuSlots;

    // Written by the heartbeat's own statement (AgentRepository.renew), never through the entity.
    @Convert(converter = GpuSampleListConverter.class)
    @Column(name = "gpu_samples", columnDefinition = "jsonb", insertable = false, updatable = false)
    private List<GpuSample> gpuSamples;

    @Column(name = "gpu_sampled_at", insertable = false, updatable = false)
    private Instant gpuSampledAt;

    private long epoch;

    @Enumerated(EnumType.STRING)
    private AgentState state;

    @Column(name = "registered_at")
    private Instant registeredAt;

    @Column(name = "last_heartbeat_at")
    private Instant lastHeartbeatAt;

    @Column(name = "lease_expires_at")
    private Instant leaseExpiresAt;

    // The last database outage that pushed this agent's lease out, as the replica that saw it end reports it.
    @Column(name = "outage_lost_at")
    private Instant outageLostAt;

    @Column(name = "outage_back_at")
    private Instant outageBackAt;

    @Column(name = "outage_seen_by")
    private String outageSeenBy;

    protected Agent() {
    }

    Agent(String id) {
        this.id = id;
    }

    /** (Re-)registers with a fresh inventory and a new epoch. */
    void register(String host, List<Gpu> gpus, int cpuSlots, Instant now, Instant leaseExpiresAt) {
        this.host = host;
        this.gpus = List.copyOf(gpus);
        this.cpuSlots = cpuSlots;
        this.epoch++;
        this.state = AgentState.ACTIVE;
        this.registeredAt = now;
        renew(now, leaseExpiresAt);
    }

    void renew(Instant now, Instant leaseExpiresAt) {
        this.lastHeartbeatAt = now;
        this.leaseExpiresAt = leaseExpiresAt;
    }

    void markLost() {
        this.state = AgentState.LOST;
    }

    public String getId() {
        return id;
    }

    public String getHost() {
        return host;
    }

    public List<Gpu> getGpus() {
        return gpus;
    }

    /** What its GPUs were doing at the last sample its heartbeat carried; null if it never sent one. */
    public List<GpuSample> getGpuSamples() {
        return gpuSamples;
    }

    public Instant getGpuSampledAt() {
        return gpuSampledAt;
    }

    public int getCpuSlots() {
        return cpuSlots;
    }

    public long getEpoch() {
        return epoch;
    }

    public AgentState getState() {
        return state;
    }

    public Instant getRegisteredAt() {
        return registeredAt;
    }

    public Instant getLastHeartbeatAt() {
        return lastHeartbeatAt;
    }

    public Instant getLeaseExpiresAt() {
        return leaseExpiresAt;
    }

    public Instant getOutageLostAt() {
        return outageLostAt;
    }

    public Instant getOutageBackAt() {
        return outageBackAt;
    }

    public String getOutageSeenBy() {
        return outageSeenBy;
    }
}
