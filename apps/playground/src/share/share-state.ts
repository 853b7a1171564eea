/**
 * What a share link carries: the program, the context and the mock tools, in the URL's hash,
 * compressed with the browser's own CompressionStream ("deflate") and written as base64url. The
 * hash never reaches a server, so sharing needs none. `?code=<URL-encoded program>` is the short
 * form for links from the docs: a program alone, with an empty context and no tools.
 */

export interface MockTool {
  readonly name: string;
  /** JSON text: what every call of the tool returns. */
  readonly result: string;
}

export interface PlaygroundState {
  readonly program: string;
  /** JSON text of the `data/` namespace. */
  readonly context: string;
  readonly tools: readonly MockTool[];
}

/** Marks the format of the hash, so a later one can still read links made today. */
const PREFIX = "#v1.";

/**
 * Largest text a link may unpack to. Deflate packs repetitive text about a thousand to one, so
 * without a cap a link of a few hundred kilobytes (anyone can send one) unpacks to gigabytes and
 * takes the tab down before anything is shown.
 */
export const MAX_SHARED_BYTES = 8 * 1024 * 1024;

/** Thrown by `transform` when its output passes `maxBytes`. */
class TooLargeError extends Error {}

async function transform(
  bytes: Uint8Array,
  stream: CompressionStream | DecompressionStream,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stops the decompression where it stands: nothing past the cap is ever made.
      await reader.cancel();
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  const output = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    output.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return output;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The hash (with its `#`) that `decodeState` turns back into `state`. */
export async function encodeState(state: PlaygroundState): Promise<string> {
  const json = JSON.stringify({
    p: state.program,
    c: state.context,
    t: state.tools.map((tool) => [tool.name, tool.result]),
  });
  const compressed = await transform(new TextEncoder().encode(json), new CompressionStream("deflate"));
  return `${PREFIX}${toBase64Url(compressed)}`;
}

function isState(data: unknown): data is { p: string; c: string; t: [string, string][] } {
  if (typeof data !== "object" || data === null) return false;
  const { p, c, t } = data as Record<string, unknown>;
  return (
    typeof p === "string" &&
    typeof c === "string" &&
    Array.isArray(t) &&
    t.every(
      (tool) => Array.isArray(tool) && tool.length === 2 && tool.every((part) => typeof part === "string"),
    )
  );
}

/**
 * The state a hash carries; undefined for a hash that is not a share link (empty, or another
 * anchor). A damaged link throws an Error that says so.
 */
export async function decodeState(hash: string): Promise<PlaygroundState | undefined> {
  if (!hash.startsWith(PREFIX)) return undefined;
  let data: unknown;
  try {
    const bytes = await transform(
      fromBase64Url(hash.slice(PREFIX.length)),
      new DecompressionStream("deflate"),
      MAX_SHARED_BYTES,
    );
    data = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    if (error instanceof TooLargeError) {
      throw new Error(
        `this share link unpacks to more than ${MAX_SHARED_BYTES / 1024 / 1024} MiB, more than the playground opens; share a smaller context, or load the data another way`,
      );
    }
    throw new Error(
      `this share link is damaged (it does not decompress: ${String(error)}); ask for the link again`,
    );
  }
  if (!isState(data))
    throw new Error(
      "this share link is damaged (it has no program, context and tools); ask for the link again",
    );
  return { program: data.p, context: data.c, tools: data.t.map(([name, result]) => ({ name, result })) };
}

/** The program of a `?code=` link, or undefined. */
export function codeFromQuery(search: string): string | undefined {
  return new URLSearchParams(search).get("code") ?? undefined;
}
