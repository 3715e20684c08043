package io.trainyard.api.audit;

import java.time.Instant;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.security.audit.AuditLog;
import io.trainyard.validation.InvalidRequestException;
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
    @Operation(summary = "Audit records, newest first, with filters and cursor pagination")
    public AuditLog.Page list(
            @Parameter(description = "Only this actor's (a user name, or agent:<id>)") @RequestParam(required = false) String actor,
            @Parameter(description = "Only this action, e.g. job.submit, token.revoke") @RequestParam(required = false) String action,
            @Parameter(description = "Only this target path, e.g. /jobs/<id>") @RequestParam(required = false) String target,
            @RequestParam(required = false) AuditLog.Outcome outcome,
            @Parameter(description = "From this time on (ISO 8601)") @RequestParam(required = false)
            @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant since,
            @Parameter(description = "Before this time (ISO 8601)") @RequestParam(required = false)
            @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant until,
            @Parameter(description = "The nextCursor of the previous page") @RequestParam(required = false) String cursor,
            @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("limit", "must be between 1 and " + MAX_PAGE);
        }
        return auditLog.list(new AuditLog.Filter(actor, action, target, outcome, since, until), cursor, limit);
    }
}
