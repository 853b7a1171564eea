import { describe, expect, it } from "vitest";
import { ModelCallError } from "../model/model-error.js";
import { createOpenAIModel } from "./index.js";

const notFound = async () => new Response("404 page not found", { status: 404 });

async function failure(baseURL: string): Promise<ModelCallError> {
  const model = createOpenAIModel({ model: "llama3.1", baseURL, fetch: notFound });
  try {
    await model({ system: "s", messages: [{ role: "user", content: "hi" }] });
  } catch (error) {
    if (error instanceof ModelCallError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("a 404 from a base URL without /v1", () => {
  it("says what to write instead", async () => {
    const error = await failure("http://localhost:11434");
    expect(error.code).toBe("client_error");
    expect(error.message).toContain("404 page not found");
    expect(error.message).toContain('try baseURL "http://localhost:11434/v1"');
  });

  it("adds nothing when the base URL has its version", async () => {
    const error = await failure("http://localhost:11434/v1/");
    expect(error.message).toBe("OpenAI request failed with status 404: 404 page not found");
  });
});
