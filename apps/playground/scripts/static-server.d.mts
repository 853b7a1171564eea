export interface StaticServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** The bodies of the CSP violation reports the browser sent to /csp-report. */
  readonly reports: string[];
  close(): Promise<void>;
}

export function startStaticServer(options: {
  readonly directory: string;
  readonly port?: number;
  readonly csp?: string;
}): Promise<StaticServer>;
