package io.trainyard.api.tensorboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.trainyard.tensorboard.TensorBoards;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Forwards one request to a TensorBoard on a loopback port and streams its answer back. TensorBoard runs with the
 * path prefix the server serves it under, behind its secret ({@link TensorBoards}): the proxy adds the secret to the
 * path and takes it out of redirects, so TensorBoard's own links work and the browser never sees it. The caller's
 * credentials stay here: only content headers travel. TensorBoard's {@code data/environment} names the folders it
 * reads, server paths that are nobody's business: the proxy answers the run names instead.
 */
@Component
class TensorBoardProxy {

    private static final String ENVIRONMENT = "/data/environment";
    /**
     * TensorBoard's page asks for its fonts at {@code /font-roboto/}, outside the path prefix it runs under (its
     * {@code index.html} names that absolute URL whatever the prefix): made relative, they are asked for under the
     * prefix, where TensorBoard serves them.
     */
    private static final String ABSOLUTE_FONTS = "url(/font-roboto/";
    private static final String RELATIVE_FONTS = "url(font-roboto/";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> REQUEST_HEADERS = List.of("Accept", "Accept-Language", "Content-Type",
            "If-None-Match", "If-Modified-Since", "X-Requested-With", "X-XSRF-Protected");
    private static final Set<String> RESPONSE_HEADERS = Set.of("content-type", "etag", "cache-control", "expires",
            "last-modified", "x-content-type-options", "content-security-policy");

    /** @return TensorBoard's environment with its {@code data_location} (the folders it reads) replaced by run names */
    private static byte[] withoutServerPaths(byte[] environment, TensorBoards.Running tensorBoard) {
        ObjectNode json = (ObjectNode) JSON.readTree(environment);
        json.put("data_location", String.join(", ", tensorBoard.runNames()));
        return JSON.writeValueAsBytes(json);
    }

    void forward(TensorBoards.Running tensorBoard, HttpServletRequest request, HttpServletResponse response)
            throws IOException, InterruptedException {
        URI target = tensorBoard.target(request.getRequestURI(), request.getQueryString());
        HttpRequest.Builder forwarded = HttpRequest.newBuilder(target).timeout(Duration.ofMinutes(2));
        for (String header : REQUEST_HEADERS) {
            String value = request.getHeader(header);
            if (value != null) {
                forwarded.header(header, value);
            }
        }
        byte[] body = request.getInputStream().readAllBytes();
        forwarded.method(request.getMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<InputStream> answer = HTTP.send(forwarded.build(), HttpResponse.BodyHandlers.ofInputStream());
        tensorBoard.touch();
        response.setStatus(answer.statusCode());
        answer.headers().map().forEach((name, values) -> {
            if (name.equalsIgnoreCase("location")) {
                values.forEach(value -> response.addHeader(name, tensorBoard.publicLocation(value)));
            } else if (RESPONSE_HEADERS.contains(name.toLowerCase())) {
                values.forEach(value -> response.addHeader(name, value));
            }
        });
        try (InputStream in = answer.body(); OutputStream out = response.getOutputStream()) {
            if (answer.statusCode() == 200 && request.getRequestURI().endsWith(ENVIRONMENT)) {
                out.write(withoutServerPaths(in.readAllBytes(), tensorBoard));
            } else if (answer.statusCode() == 200 && answer.headers().firstValue("content-type").orElse("").startsWith("text/html")) {
                out.write(new String(in.readAllBytes(), StandardCharsets.UTF_8).replace(ABSOLUTE_FONTS, RELATIVE_FONTS)
                        .getBytes(StandardCharsets.UTF_8));
            } else {
                in.transferTo(out);
            }
        }
        tensorBoard.touch();
    }
}
