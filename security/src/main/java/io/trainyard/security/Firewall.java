package io.trainyard.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's strict firewall, except that a request with an HTTP method it does not know reaches Spring MVC,
 * which answers 405 with the Allow header of that path (the firewall would answer 400): every handler names its
 * methods, so no unknown method runs anything.
 */
@Configuration(proxyBeanMethods = false)
class Firewall {

    @Bean
    HttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        return firewall;
    }
}
