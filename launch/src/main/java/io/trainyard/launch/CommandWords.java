package io.trainyard.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits {@code trainerConfig.command} into argv words the way a POSIX shell would split them (quotes and
 * backslashes), without ever running a shell: no expansion, no redirection, no command chaining.
 */
public final class CommandWords {

    private CommandWords() {
    }

    /** @throws IllegalArgumentException for an unterminated quote or a trailing backslash */
    public static List<String> split(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < command.length()
                        && "\"\\$`".indexOf(command.charAt(i + 1)) >= 0) {
                    word.append(command.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 == command.length()) {
                    throw new IllegalArgumentException("ends with a lone backslash");
                }
                word.append(command.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("has an unterminated " + quote + " quote");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
