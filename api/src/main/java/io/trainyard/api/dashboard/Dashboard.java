package io.trainyard.api.dashboard;

import java.util.List;

import io.swagger.v3.oas.annotations.Hidden;
import io.trainyard.security.PublicPaths;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The web dashboard (built from {@code ui/} into the jar's {@code static/}). Its pages live under {@code /ui/},
 * apart from the API's paths, so any page address the browser loads or reloads gets the single-page app's
 * {@code index.html} and its router shows the page, while an unknown API path still answers a 404 problem.
 */
@Controller
@Hidden
public class Dashboard implements PublicPaths {

    /** What the browser fetches before anyone has signed in: the app's pages and files. */
    @Override
    public List<String> paths() {
        return List.of("/", "/index.html", "/assets/**", "/favicon.svg", "/ui", "/ui/**");
    }

    @GetMapping({"/", "/ui", "/ui/**"})
    public String page() {
        return "forward:/index.html";
    }
}
