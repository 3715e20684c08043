package io.trainyard.backend.local.agents;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.LockModeType;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface AgentRepository extends JpaRepository<Agent, String> {

    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select a from Agent a where a.id = :id")
    Optional<Agent> lockById(@Param("id") String id);

    /** The database's clock: leases are judged on it alone, never on a replica's. */
    @Query(value = "select clock_timestamp()", nativeQuery = true)
    Instant databaseNow();

    /**
     * Active agents whose lease ran out by the database's clock, locked; rows another replica is reaping are
     * skipped. None while a replica has been silent for {@code staleSeconds} but not yet for a lease: it may
     * have lost the database with agents heartbeating to it, and pushes their leases out when it is back.
     */
    @Query(value = """
            select * from agents where state = 'ACTIVE' and lease_expires_at < clock_timestamp()
            and not exists (select 1 from control_plane_replicas r
                            where r.last_seen_at < clock_timestamp() - make_interval(secs => :staleSeconds)
                            and r.last_seen_at > clock_timestamp() - make_interval(secs => :leaseSeconds))
            for update skip locked""", nativeQuery = true)
    List<Agent> lockExpired(@Param("staleSeconds") double staleSeconds, @Param("leaseSeconds") double leaseSeconds);

    /**
     * After a database outage, gives every active agent at least one full lease from now (database clock) to
     * heartbeat, and records the outage for {@code GET /agents}; returns how many.
     */
    @Modifying
    @Query(value = """
            update agents set lease_expires_at = greatest(lease_expires_at, clock_timestamp() + make_interval(secs => :leaseSeconds)),
                outage_lost_at = :lostAt, outage_back_at = :backAt, outage_seen_by = :replica
            where state = 'ACTIVE'""", nativeQuery = true)
    int extendLeasesAfterOutage(@Param("leaseSeconds") double leaseSeconds, @Param("lostAt") Instant lostAt,
            @Param("backAt") Instant backAt, @Param("replica") String replica);

    List<Agent> findAllByOrderByIdAsc();

    /**
     * Renews the lease of the agent's current epoch in one statement (every agent does this every few
     * seconds), on the database's clock, with the GPU samples the heartbeat carried (a JSON array; null: none,
     * the last ones are kept); 0 rows when the epoch is stale or the agent was declared lost.
     */
    @Modifying
    @Query(value = """
            update agents set last_heartbeat_at = clock_timestamp(),
                lease_expires_at = greatest(lease_expires_at, clock_timestamp() + make_interval(secs => :leaseSeconds)),
                gpu_samples = coalesce(cast(:gpuSamples as jsonb), gpu_samples),
                gpu_sampled_at = case when cast(:gpuSamples as text) is null then gpu_sampled_at else clock_timestamp() end
            where id = :id and epoch = :epoch and state = 'ACTIVE'""", nativeQuery = true)
    int renew(@Param("id") String id, @Param("epoch") long epoch, @Param("leaseSeconds") double leaseSeconds,
            @Param("gpuSamples") String gpuSamples);
}
