package io.trainyard.client.generator;

import org.openapitools.codegen.languages.JavaClientCodegen;

/**
 * openapi-generator's {@code java} generator, unchanged but for one thing: its last step prints a donation banner to
 * standard output at every build, which no option turns off and which buries the build's own output.
 */
public class QuietJavaClientCodegen extends JavaClientCodegen {

    @Override
    public void postProcess() {
        // The banner is all the step does.
    }
}
