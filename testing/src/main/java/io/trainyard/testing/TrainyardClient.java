package io.trainyard.testing;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.client.ApiClient;
import io.trainyard.client.ApiException;
import io.trainyard.client.api.AgentTokensApi;
import io.trainyard.client.api.AgentsApi;
import io.trainyard.client.api.AuditApi;
import io.trainyard.client.api.JobsApi;
import io.trainyard.client.api.LogsApi;
import io.trainyard.client.api.MetricsApi;
import io.trainyard.client.api.ProjectsApi;
import io.trainyard.client.api.SystemMetricsApi;
import io.trainyard.client.api.TokensApi;
import io.trainyard.client.api.UsersApi;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LogLine;
import io.trainyard.client.model.Membership;
import io.trainyard.client.model.NewToken;
import io.trainyard.client.model.NewUser;
import io.trainyard.client.model.Problem;

/**
 * The public API of a server, through the Java client generated from {@code api/openapi.yaml}, as one user (the
 * bearer token) sees it. Tests use it for everything the public contract describes, so that they prove the
 * contract and the generated client right; {@link #raw()} is for what that client cannot say (see
 * {@link RawHttpClient}).
 */
public final class TrainyardClient {

    /** Where a server writes the first global admin's token, under its data folder. */
    public static final String ADMIN_TOKEN_FILE = "admin-token";

    /** One HTTP connection pool for every client: the generated code would otherwise build one per API class. */
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * The generated mapper, but failing on unknown fields: any field the server sends but the contract does not
     * describe is an error in the tests.
     */
    private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private static final List<Job.StateEnum> ENDED = List.of(Job.StateEnum.SUCCEEDED, Job.StateEnum.FAILED,
            Job.StateEnum.CANCELLED);

    private final String baseUrl;
    private final String token;
    private final JobsApi jobs;
    private final LogsApi logs;
    private final MetricsApi metrics;
    private final SystemMetricsApi systemMetrics;
    private final AgentsApi agents;
    private final AgentTokensApi agentTokens;
    private final ProjectsApi projects;
    private final UsersApi users;
    private final TokensApi tokens;
    private final AuditApi audit;

    /** @param token sent as {@code Authorization: Bearer <token>}; null sends none */
    public TrainyardClient(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
        ApiClient generated = new ApiClient() {
            @Override
            public HttpClient getHttpClient() {
                return HTTP;
            }
        };
        generated.updateBaseUri(baseUrl);
        generated.setObjectMapper(JSON);
        if (token != null) {
            generated.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
        }
        jobs = new JobsApi(generated);
        logs = new LogsApi(generated);
        metrics = new MetricsApi(generated);
        systemMetrics = new SystemMetricsApi(generated);
        agents = new AgentsApi(generated);
        agentTokens = new AgentTokensApi(generated);
        projects = new ProjectsApi(generated);
        users = new UsersApi(generated);
        tokens = new TokensApi(generated);
        audit = new AuditApi(generated);
    }

    /** The server's first global admin, with the token the server wrote under its data folder at its first start. */
    public static TrainyardClient asAdmin(String baseUrl, Path dataDir) {
        try {
            return new TrainyardClient(baseUrl, Files.readString(dataDir.resolve(ADMIN_TOKEN_FILE)).strip());
        } catch (IOException e) {
            throw new AssertionError("no admin token in " + dataDir + " (was the server started with security on?)", e);
        }
    }

    /** The same server with another token (another user or agent), or none. */
    public TrainyardClient withToken(String otherToken) {
        return new TrainyardClient(baseUrl, otherToken);
    }

    /** The same server and token over plain HTTP, for what the generated client cannot express. */
    public RawHttpClient raw() {
        return new RawHttpClient(baseUrl, token);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String token() {
        return token;
    }

    public JobsApi jobs() {
        return jobs;
    }

    public LogsApi logs() {
        return logs;
    }

    public MetricsApi metrics() {
        return metrics;
    }

    public SystemMetricsApi systemMetrics() {
        return systemMetrics;
    }

    public AgentsApi agents() {
        return agents;
    }

    public AgentTokensApi agentTokens() {
        return agentTokens;
    }

    public ProjectsApi projects() {
        return projects;
    }

    public UsersApi users() {
        return users;
    }

    public TokensApi tokens() {
        return tokens;
    }

    public AuditApi audit() {
        return audit;
    }

    /**
     * A new user with these roles in existing projects and a token of its own (lasting a day), made by this
     * client, which must be a global admin's; answers that user's client.
     */
    public TrainyardClient newUser(String name, Map<String, Membership.RoleEnum> roles) {
        try {
            users.createUser(new NewUser().name(name));
            for (Map.Entry<String, Membership.RoleEnum> role : roles.entrySet()) {
                projects.setProjectMember(role.getKey(), name, new Membership().role(role.getValue()));
            }
            return withToken(users.createUserToken(name, new NewToken().name("test").expiresInDays(1)).getToken());
        } catch (ApiException e) {
            throw failed("making the user " + name, e);
        }
    }

    /** Submits the job, failing the test unless the server accepts it. */
    public Job submit(JobSubmission submission) {
        try {
            return jobs.submitJob(submission, null);
        } catch (ApiException e) {
            throw failed("submission of " + submission.getJobName(), e);
        }
    }

    public Job job(UUID id) {
        try {
            return jobs.getJob(id);
        } catch (ApiException e) {
            throw failed("reading job " + id, e);
        }
    }

    /** Polls the job until {@code condition} holds, failing after {@code timeout}. */
    public Job awaitJob(UUID id, Predicate<Job> condition, Duration timeout) {
        return Eventually.until("job " + id + " reaching the expected state", () -> job(id), condition, timeout);
    }

    public Job awaitState(UUID id, Job.StateEnum state, Duration timeout) {
        return awaitJob(id, job -> job.getState() == state, timeout);
    }

    public Job awaitEnded(UUID id, Duration timeout) {
        return awaitJob(id, job -> ENDED.contains(job.getState()), timeout);
    }

    /** The lines of the job's log, in order (up to 10,000). */
    public List<String> logTexts(UUID id) {
        try {
            return logs.getJobLogs(id, null, 10_000).getLines().stream().map(LogLine::getText).toList();
        } catch (ApiException e) {
            throw failed("reading the log of job " + id, e);
        }
    }

    /** The texts of one attempt's lines: a job's log keeps every attempt's. */
    public List<String> logTexts(UUID id, int attempt) {
        try {
            return logs.getJobLogs(id, null, 10_000).getLines().stream().filter(line -> line.getAttempt() == attempt)
                    .map(LogLine::getText).toList();
        } catch (ApiException e) {
            throw failed("reading the log of job " + id, e);
        }
    }

    /** A call of the generated client that a test expects the server to refuse. */
    @FunctionalInterface
    public interface Call {
        void run() throws ApiException;
    }

    /** The error answer to {@code call}, failing the test when the call succeeds. */
    public static ApiException refusal(Call call) {
        try {
            call.run();
        } catch (ApiException expected) {
            return expected;
        }
        throw new AssertionError("the call succeeded, but the server should have refused it");
    }

    /** The problem detail of an error answer's body ({@link ApiException#getResponseBody()} or a raw answer's). */
    public static Problem problem(String body) {
        try {
            return JSON.readValue(body, Problem.class);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not a problem detail: " + body, e);
        }
    }

    private static AssertionError failed(String what, ApiException error) {
        return new AssertionError(what + " answered " + error.getCode() + ": " + error.getResponseBody(), error);
    }
}
