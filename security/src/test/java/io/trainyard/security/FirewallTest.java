package io.trainyard.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The firewall's header rule, written as a loop, agrees with Spring's regular expressions on every character. */
class FirewallTest {

    /** StrictHttpFirewall's own expressions (spring-security-web 7.1), for header names and for header values. */
    private static final Pattern NAME = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern VALUE = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @Test
    void agreesWithSpringsExpressionsOnEveryCodePoint() {
        List<String> disagreements = new ArrayList<>();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String text = "a" + Character.toString(codePoint) + "b";
            if (Firewall.isAllowedHeaderText(text, false) != NAME.matcher(text).matches()
                    || Firewall.isAllowedHeaderText(text, true) != VALUE.matcher(text).matches()) {
                disagreements.add(Integer.toHexString(codePoint));
            }
        }
        assertThat(disagreements).isEmpty();
    }

    @Test
    void refusesControlCharactersAndUnassignedOnesAndAllowsATabInValuesOnly() {
        assertThat(Firewall.isAllowedHeaderText("Bearer ty_abc", false)).isTrue();
        assertThat(Firewall.isAllowedHeaderText("", false)).isTrue();
        assertThat(Firewall.isAllowedHeaderText("a\tb", true)).isTrue();
        assertThat(Firewall.isAllowedHeaderText("a\tb", false)).isFalse();
        assertThat(Firewall.isAllowedHeaderText("a\r\nSet-Cookie: x", true)).isFalse();
        assertThat(Firewall.isAllowedHeaderText("a\u0000", true)).isFalse();
        assertThat(Firewall.isAllowedHeaderText("\u0378", true)).isFalse();  // unassigned
        assertThat(Firewall.isAllowedHeaderText("Grüße 😀", true)).isTrue();
        assertThat(Firewall.isAllowedHeaderText("lone \uD800 surrogate", true))
                .isEqualTo(VALUE.matcher("lone \uD800 surrogate").matches());
    }
}
