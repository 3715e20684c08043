package io.trainyard.server;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import io.trainyard.problem.ProblemJson;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Requests Tomcat refuses before any of the server's code runs (a request line or headers over
 * {@code server.max-http-request-header-size}, a path with a broken percent-encoding) get a problem detail too,
 * not Tomcat's HTML error page. Tomcat writes those pages with the host's error report valve; this replaces
 * Spring Boot's (added to the host when stack traces are never shown), so it runs after Boot's customizer, and
 * Tomcat's default.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE)
class TomcatErrorReports implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> {

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            host.getPipeline().addValve(new ProblemReportValve());
            // Otherwise the host, finding no valve of its configured class when it starts, adds Tomcat's own.
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
        });
    }

    /** Writes an error status that nothing answered as an {@code application/problem+json} body. */
    static final class ProblemReportValve extends ErrorReportValve {

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0) {
                return;
            }
            AtomicBoolean writable = new AtomicBoolean(false);
            response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, writable);
            if (!writable.get()) {
                return;
            }
            HttpStatus known = HttpStatus.resolve(status);
            String title = known == null ? "HTTP " + status : known.getReasonPhrase();
            String detail = status == 400
                    ? "the web server could not read the request: a malformed URL, or a request line or headers too large"
                    : title;
            try {
                response.setContentType("application/problem+json");
                response.setCharacterEncoding("utf-8");
                Writer writer = response.getReporter();
                if (writer != null) {
                    writer.write(ProblemJson.text(status, title, detail, request.getRequestURI()));
                    response.finishResponse();
                }
            } catch (IOException | IllegalStateException e) {
                // The connection is gone or the response was committed meanwhile: nothing more to say.
            }
        }
    }
}
