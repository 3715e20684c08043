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

    /** Active agents whose lease ran out, locked; rows another replica is reaping are skipped. */
    @Query(value = """
            select * from agents where state = 'ACTIVE' and lease_expires_at < :now
            for update skip locked""", nativeQuery = true)
    List<Agent> lockExpired(@Param("now") Instant now);

    List<Agent> findAllByOrderByIdAsc();

    /**
     * Renews the lease of the agent's current epoch in one statement (every agent does this every few
     * seconds); 0 rows when the epoch is stale or the agent was declared lost.
     */
    @Modifying
    @Query(value = """
            update agents set last_heartbeat_at = :now, lease_expires_at = :leaseExpiresAt
            where id = :id and epoch = :epoch and state = 'ACTIVE'""", nativeQuery = true)
    int renew(@Param("id") String id, @Param("epoch") long epoch, @Param("now") Instant now,
            @Param("leaseExpiresAt") Instant leaseExpiresAt);
}
