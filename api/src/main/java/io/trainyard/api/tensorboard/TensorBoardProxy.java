package io.trainyard.api.tensorboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.trainyard.tensorboard.TensorBoards;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;

/**
 * Forwards one request to a TensorBoard on a loopback port and streams its answer back. TensorBoard runs with the
 * path prefix the server serves it under, so the request path passes unchanged and TensorBoard's own links work.
 * The caller's credentials stay here: only content headers travel.
 */
@Component
class TensorBoardProxy {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> REQUEST_HEADERS = List.of("Accept", "Accept-Language", "Content-Type",
            "If-None-Match", "If-Modified-Since", "X-Requested-With", "X-XSRF-Protected");
    private static final Set<String> RESPONSE_HEADERS = Set.of("content-type", "etag", "cache-control", "expires",
            "last-modified", "location", "x-content-type-options", "content-security-policy");

    void forward(TensorBoards.Running tensorBoard, HttpServletRequest request, HttpServletResponse response)
            throws IOException, InterruptedException {
        String query = request.getQueryString();
        URI target = URI.create("http://127.0.0.1:" + tensorBoard.port() + request.getRequestURI()
                + (query == null ? "" : "?" + query));
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
            if (RESPONSE_HEADERS.contains(name.toLowerCase())) {
                values.forEach(value -> response.addHeader(name, value));
            }
        });
        try (InputStream in = answer.body(); OutputStream out = response.getOutputStream()) {
            in.transferTo(out);
        }
        tensorBoard.touch();
    }
}
