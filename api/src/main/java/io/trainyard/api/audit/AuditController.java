package io.trainyard.api.audit;

import java.time.Instant;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.security.audit.AuditLog;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The audit log (global admins): every state-changing request, newest first. */
@RestController
@RequestMapping("/audit")
@Tag(name = "audit", description = "Who did what, when, from where, and how it went")
public class AuditController {

    private static final int MAX_PAGE = 500;

    private final AuditLog auditLog;

    public AuditController(AuditLog auditLog) {
        this.auditLog = auditLog;
    }

    @GetMapping
    @Operation(operationId = "listAuditEvents", summary = "Audit records, newest first, with filters and cursor pagination")
    public AuditLog.Page list(
            @Parameter(description = "Only this actor's (a user name, or agent:<id>)") @RequestParam(required = false) @Nullable String actor,
            @Parameter(description = "Only this action, e.g. job.submit, token.revoke") @RequestParam(required = false) @Nullable String action,
            @Parameter(description = "Only this target path, e.g. /jobs/<id>") @RequestParam(required = false) @Nullable String target,
            @Parameter(description = "Only records of this outcome; empty: any", allowEmptyValue = true)
            @RequestParam(required = false) AuditLog.@Nullable Outcome outcome,
            @Parameter(description = "From this time on (ISO 8601); empty: no limit", allowEmptyValue = true) @RequestParam(required = false)
            @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) @Nullable Instant since,
            @Parameter(description = "Before this time (ISO 8601); empty: no limit", allowEmptyValue = true) @RequestParam(required = false)
            @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) @Nullable Instant until,
            @Parameter(description = "The nextCursor of the previous page; a value this server did not hand out is 422")
            @RequestParam(required = false) @Nullable String cursor,
            @Parameter(description = "Records per page; empty: the default", allowEmptyValue = true)
            @RequestParam(defaultValue = "100") @Min(1) @Max(MAX_PAGE) int limit) {
        return auditLog.list(new AuditLog.Filter(actor, action, target, outcome, since, until), cursor, limit);
    }
}
