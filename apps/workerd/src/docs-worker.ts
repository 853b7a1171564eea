import { run, setCodeGeneration, toJson } from "@ptc/lisp";

// Workers forbid code generation from strings: say so up front, and nothing probes.
setCodeGeneration("off");

export default {
  async fetch(request: Request): Promise<Response> {
    const { program, context } = (await request.json()) as {
      program: string;
      context?: Record<string, unknown>;
    };
    const result = await run(program, { context: context ?? {}, limits: { timeoutMs: 500 } });
    return Response.json(result.ok ? { value: toJson(result.value) } : { error: result.error }, {
      status: result.ok ? 200 : 422,
    });
  },
};
