/**
 * The HTTP server in front of Fastify. Most requests go straight to Fastify; a fast path may
 * claim a request first and answer it from memory without Fastify's routing, hooks and reply
 * machinery (render/warm-pages.ts: warm published pages, the most frequent answer by far). A
 * fast path answers exactly what Fastify would, headers included, or leaves the request alone.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyServerOptions } from "fastify";

/** Answers the request and returns true, or returns false without touching it. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

type Options = FastifyServerOptions & {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

export class FrontDoor {
  private readonly paths: FastPath[] = [];
  private closing = false;
  private server: http.Server | undefined;
  /** Requests a fast path answered. */
  served = 0;

  use(path: FastPath): void {
    this.paths.push(path);
  }

  /**
   * While the app closes, Fastify answers everything (503 to new requests, as it does). Fastify
   * closes the connections idle when closing starts; one whose last answer ends after that would
   * stay open until its keep-alive timeout (72 s) and hold the close back, so connections are
   * closed as they fall idle until the server has closed.
   */
  close(): void {
    this.closing = true;
    const server = this.server;
    if (!server?.listening) return;
    const reapIdle = setInterval(() => server.closeIdleConnections(), 50).unref();
    server.once("close", () => clearInterval(reapIdle));
  }

  /** Fastify's `serverFactory`: the server Fastify would make, with the fast paths in front. */
  readonly serverFactory = (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    opts: Options,
  ): http.Server => {
    const server = http.createServer(opts.http ?? {}, (req, res) => {
      if (!this.closing) {
        for (const path of this.paths) {
          if (path(req, res)) {
            this.served++;
            return;
          }
        }
      }
      handler(req, res);
    });
    this.server = server;
    // The settings Fastify gives the server it makes itself.
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket && opts.maxRequestsPerSocket > 0) {
      server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    }
    return server;
  };
}
