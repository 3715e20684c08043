package io.trainyard.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's strict firewall, except that a request with an HTTP method it does not know reaches Spring MVC,
 * which answers 405 with the Allow header of that path (the firewall would answer 400): every handler names its
 * methods, so no unknown method runs anything. Header names and values are held to the firewall's own rule.
 */
@Configuration(proxyBeanMethods = false)
class Firewall {

    @Bean
    HttpFirewall httpFirewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        firewall.setAllowedHeaderNames(name -> isAllowedHeaderText(name, false));
        firewall.setAllowedHeaderValues(value -> isAllowedHeaderText(value, true));
        return firewall;
    }

    /**
     * The strict firewall's own rule for header names and values, as a loop over the code points rather than its
     * regular expressions ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}, a tab allowed in values): it checks a header
     * each time anything reads it, and those matches took 2 % of a submission's CPU.
     */
    static boolean isAllowedHeaderText(String text, boolean tabAllowed) {
        int i = 0;
        while (i < text.length()) {
            int codePoint = text.codePointAt(i);
            if (Character.getType(codePoint) == Character.UNASSIGNED
                    || Character.isISOControl(codePoint) && !(tabAllowed && codePoint == '\t')) {
                return false;
            }
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
