/** A real HTTP endpoint for webhook tests: it records every request and answers the statuses it is told. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class Receiver {
  readonly received: Received[] = [];
  /** The statuses of the next answers, in order; 200 once they are used up. */
  answers: number[] = [];
  private server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      this.received.push({ headers: req.headers, body });
      const status = this.answers.shift() ?? 200;
      res
        .writeHead(status, { "content-type": "text/plain" })
        .end(status < 300 ? "thanks" : "down for maintenance");
    });
  });

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, "127.0.0.1", resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
