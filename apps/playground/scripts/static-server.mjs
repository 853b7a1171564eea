// A static file server for the built playground, on loopback only. `pnpm playground` serves with
// it; the browser tests start it in-process, optionally with a Content-Security-Policy on every
// response (workers included) and an endpoint that collects the browser's violation reports.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Starts serving `directory` on 127.0.0.1 (`port` 0 picks a free one).
 * `csp`: a Content-Security-Policy header for every response. Reports sent to `/csp-report`
 * (`report-uri /csp-report` in the policy) are kept in `reports`.
 */
export function startStaticServer({ directory, port = 0, csp }) {
  const reports = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/csp-report" && request.method === "POST") {
      const chunks = [];
      for await (const chunk of request) chunks.push(chunk);
      reports.push(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(204).end();
      return;
    }
    const relative = normalize(
      decodeURIComponent(url.pathname === "/" ? "/index.html" : url.pathname),
    ).replace(/^[/\\]+/, "");
    const path = join(directory, relative);
    if (!path.startsWith(directory.endsWith(sep) ? directory : directory + sep)) {
      response.writeHead(403).end("outside the site");
      return;
    }
    try {
      const body = await readFile(path);
      const headers = {
        "content-type": TYPES[extname(path)] ?? "application/octet-stream",
        "cache-control": "no-store",
      };
      if (csp !== undefined) headers["content-security-policy"] = csp;
      response.writeHead(200, headers).end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${url.pathname}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        reports,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
