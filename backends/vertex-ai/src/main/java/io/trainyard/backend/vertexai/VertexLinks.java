package io.trainyard.backend.vertexai;

import java.util.LinkedHashMap;
import java.util.Map;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobName;
import com.google.cloud.aiplatform.v1.TensorboardName;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Google Cloud console page of a job's CustomJob and its Vertex AI TensorBoard experiment (Vertex AI
 * names the experiment after the CustomJob's id). Both come from the run state recorded when the CustomJob
 * started running: its name and the TensorBoard instance it was created with.
 */
final class VertexLinks {

    static final String CONSOLE = "vertexConsole";
    static final String TENSORBOARD = "tensorboard";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private VertexLinks() {
    }

    /** The run state stored with the job: what the links are made of. */
    static String runState(CustomJob job) {
        Map<String, String> state = new LinkedHashMap<>();
        state.put("customJob", job.getName());
        if (!job.getJobSpec().getTensorboard().isEmpty()) {
            state.put("tensorboard", job.getJobSpec().getTensorboard());
        }
        return JSON.writeValueAsString(state);
    }

    static Map<String, String> of(String runState) {
        if (runState == null) {
            return Map.of();
        }
        JsonNode state = JSON.readTree(runState);
        CustomJobName name = CustomJobName.parse(state.get("customJob").asString());
        Map<String, String> links = new LinkedHashMap<>();
        links.put(CONSOLE, "https://console.cloud.google.com/vertex-ai/locations/" + name.getLocation() + "/training/"
                + name.getCustomJob() + "/cpu?project=" + name.getProject());
        if (state.has("tensorboard")) {
            String tensorboard = state.get("tensorboard").asString();
            links.put(TENSORBOARD, "https://" + TensorboardName.parse(tensorboard).getLocation()
                    + ".tensorboard.googleusercontent.com/experiment/" + tensorboard.replace('/', '+')
                    + "+experiments+" + name.getCustomJob());
        }
        return links;
    }
}
