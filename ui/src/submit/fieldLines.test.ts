import { describe, expect, it } from "vitest";
import { lineOfField } from "./fieldLines";

const yaml = `graphMetadata:
  nodeTypes:
  - user
trainerConfig:
  command: python -m train
  trainer_args:
    learning_rate: "0.1"
`;

describe("the line of a field the server names", () => {
  it("is the line of the key, however deep", () => {
    expect(lineOfField(yaml, "trainerConfig.command")).toBe(5);
    expect(lineOfField(yaml, "graphMetadata.nodeTypes[0]")).toBe(3);
  });

  it("matches snake_case keys to the camelCase the server names", () => {
    expect(lineOfField(yaml, "trainerConfig.trainerArgs.learning_rate")).toBe(7);
  });

  it("is the nearest parent's line when the field is missing", () => {
    expect(lineOfField(yaml, "trainerConfig.trainerClsPath")).toBe(4);
    expect(lineOfField(yaml, "taskMetadata")).toBe(1);
  });
});
