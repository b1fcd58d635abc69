/**
 * Caddy in front of two processes with on-demand TLS (`npm run cluster -- --proxy caddy`, deploy/Caddyfile) and
 * Caddy's local CA (`tls internal`, no internet): a domain verified against a DNS server run by
 * the test gets a certificate for its name and the site over HTTPS (with HSTS); a name that is
 * not verified gets no certificate; plain HTTP redirects to HTTPS.
 *
 * Needs Caddy (`apt-get install caddy`) and PostgreSQL. Run: npm run test:cluster
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type tls from "node:tls";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "../apps/server/test/dns-server.js";
import { FetchClient, firstSiteId, signInDemoOwner } from "../apps/server/test/fetch-client.js";
import { type Cluster, startCluster } from "../scripts/cluster.js";

let dns: TestDnsServer;
let cluster: Cluster;
let ca: Buffer;

beforeAll(async () => {
  dns = await startDnsServer();
  cluster = await startCluster({
    // Two processes behind Caddy, as deployed: either may answer Caddy's question and the request.
    processes: 2,
    proxy: "caddy",
    port: 0,
    extraEnv: { DNS_SERVERS: dns.address, DOMAIN_IPV4: "127.0.0.1" },
  });
  ca = readFileSync(cluster.caddy!.rootCertificate);
});
afterAll(async () => {
  await cluster?.stop();
  await dns?.close();
});

/** GET `/` of `name` through Caddy's HTTPS port, trusting only Caddy's local CA. */
function overHttps(name: string) {
  return new Promise<{ status: number; names: string; hsts?: string; body: string }>((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port: cluster.nginxPort,
        servername: name,
        headers: { host: name },
        path: "/",
        ca,
      },
      (res) => {
        const cert = (res.socket as tls.TLSSocket).getPeerCertificate();
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            names: cert.subjectaltname ?? "",
            hsts: res.headers["strict-transport-security"] as string | undefined,
            body,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

it("issues a certificate for a verified domain only, and serves the site on it over HTTPS", async () => {
  const owner = new FetchClient(`http://127.0.0.1:${cluster.processes[0]!.port}`);
  expect((await signInDemoOwner(owner)).status).toBe(200);
  const siteId = await firstSiteId(owner);
  const base = `/api/owner/sites/${siteId}/domains`;
  const added = await owner.call(base, "POST", { host: "shop.example.com" });
  expect(added.status, await added.clone().text()).toBe(201);
  const { domains } = (await added.json()) as {
    domains: { host: string; records: { type: string; value: string }[] }[];
  };
  const token = domains[0]!.records.find((r) => r.type === "TXT")!.value;

  // Before verification: Caddy asks, the server says no, and there is no certificate.
  await expect(overHttps("shop.example.com")).rejects.toThrow();

  dns.set("shop.example.com", [{ type: "A", value: "127.0.0.1" }]);
  dns.set("_atelier.shop.example.com", [{ type: "TXT", value: token }]);
  const verified = await owner.call(`${base}/shop.example.com/verify`, "POST");
  expect(((await verified.json()) as { domains: { status: string }[] }).domains[0]!.status).toBe("verified");

  const page = await overHttps("shop.example.com");
  expect(page.status).toBe(200);
  expect(page.names).toContain("DNS:shop.example.com");
  expect(page.hsts).toBe("max-age=31536000; includeSubDomains");
  expect(page.body).toContain('<link rel="canonical" href="https://shop.example.com/"');

  // A name nobody verified gets no certificate.
  await expect(overHttps("unverified.example.org")).rejects.toThrow();

  // Plain HTTP moves to HTTPS.
  const moved = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http
      .get(
        {
          host: "127.0.0.1",
          port: cluster.caddy!.httpPort,
          path: "/shop?x=1",
          headers: { host: "shop.example.com" },
        },
        resolve,
      )
      .on("error", reject),
  );
  expect(moved.statusCode).toBe(308);
  expect(moved.headers.location).toBe("https://shop.example.com/shop?x=1");
});
