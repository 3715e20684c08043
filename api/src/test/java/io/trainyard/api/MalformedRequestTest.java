package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Requests whose headers or encoding are broken, sent byte for byte over a socket (an HTTP client library would
 * refuse to send most of them): each gets a 4xx problem detail, never a 500 or Spring's whitelabel page.
 */
class MalformedRequestTest {

    @TempDir
    static Path dataDir;

    private static RunningServer server;
    private static String token;
    private static int port;

    @BeforeAll
    static void start() {
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "malformed-node");
        token = server.api().token();
        port = URI.create(server.api().baseUrl()).getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aMultipartContentTypeWithoutBoundaryOnAGetIsABadRequest() throws IOException {
        assertProblem(send("GET /agents", "Content-Type: multipart/form-data", null), 400);
    }

    @Test
    void aContentTypeThatIsNoMediaTypeIsRefused() throws IOException {
        Answer answer = send("POST /jobs", "Content-Type: this is not a media type", "{}".getBytes(StandardCharsets.UTF_8));
        assertProblem(answer, answer.status() == 415 ? 415 : 400);
    }

    @Test
    void anUnknownCharsetIsRefused() throws IOException {
        Answer answer = send("POST /jobs", "Content-Type: application/json; charset=no-such-charset",
                "{}".getBytes(StandardCharsets.UTF_8));
        assertProblem(answer, answer.status() == 415 ? 415 : 400);
    }

    @Test
    void aBodyThatIsNotJsonIsAnUnsupportedMediaType() throws IOException {
        assertProblem(send("POST /jobs", "Content-Type: text/plain", "hello".getBytes(StandardCharsets.UTF_8)), 415);
    }

    @Test
    void aMalformedAcceptHeaderIsABadRequest() throws IOException {
        assertProblem(send("GET /jobs", "Accept: ///;;;=", null), 400);
    }

    @Test
    void aContentEncodingTheServerDoesNotSpeakIsAnUnsupportedMediaType() throws IOException {
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (OutputStream gzip = new GZIPOutputStream(gzipped)) {
            gzip.write("{\"jobName\": \"zipped\"}".getBytes(StandardCharsets.UTF_8));
        }
        Answer answer = send("POST /jobs", "Content-Type: application/json\r\nContent-Encoding: gzip", gzipped.toByteArray());
        assertProblem(answer, 415);
        assertThat(answer.headers().toLowerCase(Locale.ROOT)).contains("accept-encoding: identity");
    }

    /** Tomcat refuses such a URI before any of the server's code runs; its error page is a problem detail too. */
    @Test
    void aMalformedPercentEncodingInThePathIsABadRequest() throws IOException {
        assertProblem(send("GET /jobs/%zz", "Accept: application/json", null), 400);
    }

    /** Over server.max-http-request-header-size (8 KB): Tomcat refuses it, with a problem detail. */
    @Test
    void aQueryStringLargerThanTheHeaderLimitIsABadRequest() throws IOException {
        assertProblem(send("GET /jobs?namePrefix=" + "a".repeat(16_384), "Accept: application/json", null), 400);
    }

    @Test
    void bytesThatAreNotUtf8InAJsonBodyAreABadRequest() throws IOException {
        assertProblem(send("POST /jobs", "Content-Type: application/json",
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}), 400);
    }

    @Test
    void aQueryParameterWithoutANameIsABadRequest() throws IOException {
        assertProblem(send("GET /jobs?=x&limit=5", "Accept: application/json", null), 400);
        assertProblem(send("GET /jobs?limit=%zz", "Accept: application/json", null), 400);
    }

    /** Spring would bind the first value and drop the rest; the contract gives limit one value. */
    @Test
    void aSingleValuedQueryParameterGivenTwiceIsABadRequestNamingIt() throws IOException {
        Answer answer = send("GET /jobs?limit=&limit=x", "Accept: application/json", null);
        assertProblem(answer, 400);
        assertThat(RawHttpClient.JSON.readTree(answer.body()).get("errors").get(0).get("field").asString()).isEqualTo("limit");
    }

    /** Spring trims a typed value (control characters too), and one of only those read as absent: "any state". */
    @Test
    void aTypedQueryValueWithWhitespaceAroundItIsABadRequestNamingIt() throws IOException {
        for (String query : List.of("state=%0D", "state=%0E", "state=%20QUEUED", "state=QUEUED,%20RUNNING", "limit=5%20")) {
            Answer answer = send("GET /jobs?" + query, "Accept: application/json", null);
            assertProblem(answer, 400);
            assertThat(RawHttpClient.JSON.readTree(answer.body()).get("errors").get(0).get("field").asString())
                    .isEqualTo(query.substring(0, query.indexOf('=')));
        }
        assertThat(send("GET /jobs?namePrefix=%20a%20", "Accept: application/json", null).status()).isEqualTo(200);
    }

    @Test
    void aRepeatableQueryParameterMayBeGivenTwiceAndEmptyAloneMeansAny() throws IOException {
        assertThat(send("GET /jobs?state=QUEUED&state=RUNNING", "Accept: application/json", null).status()).isEqualTo(200);
        assertThat(send("GET /jobs?state=&label=", "Accept: application/json", null).status()).isEqualTo(200);
    }

    /** It was a 500: Spring binds each empty value among several as a null state. */
    @Test
    void anEmptyValueAmongSeveralIsInvalid() throws IOException {
        assertProblem(send("GET /jobs?state=&state=", "Accept: application/json", null), 422);
        assertProblem(send("GET /jobs?label=&label=a=b", "Accept: application/json", null), 422);
    }

    private record Answer(int status, String headers, String body) {
    }

    private static void assertProblem(Answer answer, int status) {
        assertThat(answer.status()).as(answer.headers() + "\n" + answer.body()).isEqualTo(status);
        assertThat(answer.headers().toLowerCase(Locale.ROOT)).contains("content-type: application/problem+json");
        JsonNode problem = RawHttpClient.JSON.readTree(answer.body());
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("title").asString()).isNotBlank();
    }

    /** One request, written as raw bytes, with the admin's token; the answer read to the end. */
    private static Answer send(String requestLine, String headers, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder(requestLine + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + "Authorization: Bearer " + token + "\r\n" + headers + "\r\n");
            if (body != null) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int split = response.indexOf("\r\n\r\n");
            String responseHeaders = response.substring(0, split);
            String responseBody = response.substring(split + 4);
            if (responseHeaders.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                responseBody = unchunk(responseBody);
            }
            return new Answer(Integer.parseInt(responseHeaders.split(" ")[1]), responseHeaders, responseBody);
        }
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).strip(), 16);
            if (size == 0) {
                return body.toString();
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }
}
