import dns from "node:dns";
import http from "node:http";
import { hostname } from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress } from "./public-address.js";
import { OutboundRefused, checkOutboundUrl, outboundRequest, urlProblem } from "./request.js";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fc12::3",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "[::1]",
    "not an address",
  ])("refuses %s", (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"])(
    "allows %s",
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe("urlProblem and checkOutboundUrl", () => {
  it("wants https unless http is allowed, and no credentials", () => {
    expect(urlProblem("http://example.com/hook")).toMatch(/https/);
    expect(urlProblem("http://example.com/hook", { allowHttp: true })).toBeUndefined();
    expect(urlProblem("ftp://example.com", { allowHttp: true })).toBeDefined();
    expect(urlProblem("https://user:pw@example.com")).toMatch(/user name/);
    expect(urlProblem("not a url")).toMatch(/full address/);
  });

  it("refuses private literals and names that resolve to them", async () => {
    for (const url of [
      "https://127.0.0.1/x",
      "https://10.0.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://localhost/x",
    ])
      expect(await checkOutboundUrl(url), url).toMatch(/private or local/);
    expect(await checkOutboundUrl("https://127.0.0.1/x", { allowPrivate: true })).toBeUndefined();
  });
});

describe("outboundRequest", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/big") return res.end("x".repeat(10_000));
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2000);
      if (req.url === "/hop") {
        res.writeHead(302, { location: "/ok" });
        return res.end();
      }
      if (req.url === "/away") {
        res.writeHead(302, { location: "http://169.254.169.254/latest" });
        return res.end();
      }
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => res.end(`${req.method} ${body}`));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const local = { allowHttp: true, allowPrivate: true, timeoutMs: 5000, maxBytes: 1000 };

  it("refuses a name resolving to loopback at connect time", async () => {
    // The machine's own name resolves to a loopback address (/etc/hosts) and passes the URL check.
    const name = hostname();
    expect(isPublicAddress((await dns.promises.lookup(name)).address)).toBe(false);
    const url = `http://${name}:${new URL(base).port}/ok`;
    expect(urlProblem(url, { allowHttp: true })).toBeUndefined();
    await expect(outboundRequest(url, { ...local, allowPrivate: false })).rejects.toBeInstanceOf(
      OutboundRefused,
    );
    expect((await outboundRequest(url, local)).status).toBe(200);
  });

  it("sends the body and reads the answer when allowed", async () => {
    const res = await outboundRequest(`${base}/ok`, { ...local, method: "POST", body: "hello" });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("POST hello");
  });

  it("follows redirects only when asked, checking each target", async () => {
    expect((await outboundRequest(`${base}/hop`, local)).status).toBe(302);
    expect((await outboundRequest(`${base}/hop`, { ...local, maxRedirects: 3 })).body.toString()).toBe(
      "GET ",
    );
    await expect(
      outboundRequest(`${base}/away`, { ...local, allowPrivate: false, maxRedirects: 3 }),
    ).rejects.toBeInstanceOf(OutboundRefused);
  });

  it("cuts or refuses a body over the limit", async () => {
    const cut = await outboundRequest(`${base}/big`, { ...local, overflow: "truncate" });
    expect(cut.truncated).toBe(true);
    expect(cut.body.length).toBe(1000);
    await expect(outboundRequest(`${base}/big`, local)).rejects.toThrow(/larger than 1000 bytes/);
  });

  it("gives up after the timeout", async () => {
    await expect(outboundRequest(`${base}/slow`, { ...local, timeoutMs: 200 })).rejects.toThrow(
      /No answer within/,
    );
  });
});
