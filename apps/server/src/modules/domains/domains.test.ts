import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "../../../test/dns-server.js";
import { Browser, type TestApp, createTestApp, signedInOwner, signedUpOwner } from "../../../test/harness.js";
import { runDueJobs } from "../jobs/service.js";
import { NO_WEBSITE_HERE } from "../sites/service.js";
import { RECHECK_EVERY_MS, RECHECK_FOR_MS } from "./service.js";

const IPV4 = "203.0.113.7";
const TARGET = "sites.atelier-host.example";

let dns: TestDnsServer;
let t: TestApp;
let now = new Date("2026-11-28T10:00:00Z");
let owner: Browser;
let siteId: string;
let rival: Browser;
let rivalSiteId: string;

const api = (b: Browser, method: string, path: string, payload?: unknown, id = siteId) =>
  b.request({ method: method as "GET", url: `/api/owner/sites/${id}${path}`, payload: payload as object });

/** Points a name at the operator and sets its TXT record to `token`. */
function pointHere(host: string, token: string) {
  dns.set(host, [{ type: "A", value: IPV4 }]);
  dns.set(`_atelier.${host}`, [{ type: "TXT", value: token }]);
}

async function domainOf(b: Browser, host: string, id = siteId) {
  const list = (await api(b, "GET", "/domains", undefined, id)).json();
  return list.domains.find((d: { host: string }) => d.host === host);
}

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({
    seed: true,
    clock: { now: () => now },
    env: { DNS_SERVERS: dns.address, DOMAIN_IPV4: IPV4, DOMAIN_TARGET: TARGET, TRUST_PROXY: "loopback" },
  });
  owner = await signedInOwner(t);
  const made = await owner.request({
    method: "POST",
    url: "/api/owner/sites",
    payload: { title: "Harbour Journal", starter: "magazine" },
  });
  expect(made.statusCode, made.body).toBe(201);
  siteId = made.json().site.id;
  rival = await signedUpOwner(t, "rival@example.com");
  const theirs = await rival.request({
    method: "POST",
    url: "/api/owner/sites",
    payload: { title: "Rival" },
  });
  rivalSiteId = theirs.json().site.id;
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

describe("connecting a domain", () => {
  it("refuses names that are not a public DNS name of the owner's", async () => {
    for (const [host, reason] of [
      ["not a domain", "Enter a domain name such as shop.example.com."],
      ["192.0.2.1", "An IP address cannot be a site's domain"],
      ["demo.localhost", "one of the platform's own addresses"],
      ["localhost", "Enter a domain name"],
    ]) {
      const res = await api(owner, "POST", "/domains", { host });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().error.message, host).toContain(reason);
    }
  });

  it("shows the records to set, and verifies only when the TXT record holds the site's token", async () => {
    const add = await api(owner, "POST", "/domains", { host: "https://Journal.Example.com/" });
    expect(add.statusCode, add.body).toBe(201);
    const added = add.json().domains[0];
    expect(added).toMatchObject({
      host: "journal.example.com",
      status: "pending",
      primary: false,
      error: null,
    });
    const txt = added.records.find((r: { type: string }) => r.type === "TXT");
    expect(txt.name).toBe("_atelier.journal.example.com");
    expect(txt.value).toMatch(/^atelier-verify=/);
    expect(added.records).toEqual(
      expect.arrayContaining([
        { type: "A", name: "journal.example.com", value: IPV4 },
        { type: "CNAME", name: "journal.example.com", value: TARGET },
      ]),
    );
    // Not verified yet: the name serves nothing of the site, and the setup guide's step stays open.
    const before = await new Browser(t.app, "journal.example.com").visit("/");
    expect(before.statusCode).toBe(404);
    const guideStep = async () =>
      (await api(owner, "GET", "/setup")).json().steps.find((s: { id: string }) => s.id === "domain");
    expect(await guideStep()).toMatchObject({ done: false, href: `/sites/${siteId}/settings/domains` });

    // No TXT record at all.
    dns.set("journal.example.com", [{ type: "A", value: IPV4 }]);
    let res = await api(owner, "POST", "/domains/journal.example.com/verify");
    expect(res.statusCode).toBe(200);
    let d = res.json().domains[0];
    expect(d.status).toBe("pending");
    expect(d.error).toBe(
      `There is no TXT record at _atelier.journal.example.com yet: add one holding ${txt.value}.`,
    );
    expect(d.lastCheckedAt).toBe(now.toISOString());

    // The wrong token.
    dns.set("_atelier.journal.example.com", [{ type: "TXT", value: "atelier-verify=someone-else" }]);
    d = (await api(owner, "POST", "/domains/journal.example.com/verify")).json().domains[0];
    expect(d.error).toBe(
      `The TXT record at _atelier.journal.example.com holds "atelier-verify=someone-else", not this site's token ${txt.value}.`,
    );

    // The right token, but the name points elsewhere.
    dns.set("_atelier.journal.example.com", [{ type: "TXT", value: txt.value }]);
    dns.set("journal.example.com", [{ type: "A", value: "198.51.100.9" }]);
    d = (await api(owner, "POST", "/domains/journal.example.com/verify")).json().domains[0];
    expect(d.error).toBe(
      `journal.example.com does not point to this server: set an A record to ${IPV4} or a CNAME record to ${TARGET} (it points to 198.51.100.9).`,
    );

    // The right records (here a CNAME to the target).
    dns.set("journal.example.com", [{ type: "CNAME", value: TARGET }]);
    res = await api(owner, "POST", "/domains/journal.example.com/verify");
    d = res.json().domains[0];
    expect(d).toMatchObject({
      status: "verified",
      primary: true,
      error: null,
      verifiedAt: now.toISOString(),
    });
    const site = (await api(owner, "GET", "")).json().site;
    expect(site.url).toBe("http://journal.example.com");
    expect((await guideStep()).done).toBe(true);
  });

  it("lets whoever verifies a pending name first hold it; a verified name cannot be added elsewhere", async () => {
    const taken = await api(rival, "POST", "/domains", { host: "journal.example.com" }, rivalSiteId);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.message).toBe("That domain is already connected to another site.");

    // Both add a name nobody has verified; the rival proves it first.
    expect((await api(owner, "POST", "/domains", { host: "contested.example.com" })).statusCode).toBe(201);
    expect(
      (await api(rival, "POST", "/domains", { host: "contested.example.com" }, rivalSiteId)).statusCode,
    ).toBe(201);
    const theirs = await domainOf(rival, "contested.example.com", rivalSiteId);
    const ours = await domainOf(owner, "contested.example.com");
    expect(theirs.records.at(-1).value).not.toBe(ours.records.at(-1).value);
    pointHere("contested.example.com", theirs.records.at(-1).value);
    const won = await api(rival, "POST", "/domains/contested.example.com/verify", undefined, rivalSiteId);
    expect(won.json().domains[0].status).toBe("verified");
    // Our records could never match now, and the name is theirs in any case.
    dns.set("_atelier.contested.example.com", [{ type: "TXT", value: ours.records.at(-1).value }]);
    const lost = await api(owner, "POST", "/domains/contested.example.com/verify");
    expect(
      lost.json().domains.find((d: { host: string }) => d.host === "contested.example.com"),
    ).toMatchObject({
      status: "pending",
      error: "That domain is already connected to another site.",
    });
    expect((await api(owner, "DELETE", "/domains/contested.example.com")).statusCode).toBe(200);
  });

  it("re-checks pending names from the job queue for 72 hours, then gives up", async () => {
    const add = await api(owner, "POST", "/domains", { host: "later.example.com" });
    const token = add
      .json()
      .domains.find((d: { host: string }) => d.host === "later.example.com")
      .records.at(-1);
    now = new Date(now.getTime() + RECHECK_EVERY_MS);
    await runDueJobs(t.app.deps, "test");
    expect((await domainOf(owner, "later.example.com")).status).toBe("pending");
    pointHere("later.example.com", token.value);
    now = new Date(now.getTime() + RECHECK_EVERY_MS);
    await runDueJobs(t.app.deps, "test");
    expect((await domainOf(owner, "later.example.com")).status).toBe("verified");

    await api(owner, "POST", "/domains", { host: "never.example.com" });
    now = new Date(now.getTime() + RECHECK_FOR_MS);
    await runDueJobs(t.app.deps, "test");
    const never = await domainOf(owner, "never.example.com");
    expect(never.status).toBe("failed");
    expect(never.error).toContain("There is no TXT record at _atelier.never.example.com");
  });

  it("makes only a verified name primary", async () => {
    const res = await api(owner, "PUT", "/domains/never.example.com/primary");
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("Only a verified domain can be the primary one: verify it first.");
  });
});

describe("one canonical address per site", () => {
  const on = (host: string, url: string) => new Browser(t.app, host).visit(url);

  it("writes the primary domain into canonical links, og:url, JSON-LD, the sitemap, robots and feeds", async () => {
    const home = await on("journal.example.com", "/journal");
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<link rel="canonical" href="http://journal.example.com/journal"');
    expect(home.body).toContain('<meta property="og:url" content="http://journal.example.com/journal"');
    expect(home.body).not.toContain("http://localhost/journal");
    const front = await on("journal.example.com", "/");
    const jsonLd =
      /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(front.body)?.[1] ?? "";
    expect(jsonLd).toContain('"url":"http://journal.example.com/"');
    const sitemap = await on("journal.example.com", "/sitemap.xml");
    expect(sitemap.body).toContain("<loc>http://journal.example.com/journal</loc>");
    expect(sitemap.body).not.toContain("http://localhost");
    expect((await on("journal.example.com", "/robots.txt")).body).toContain(
      "Sitemap: http://journal.example.com/sitemap.xml",
    );
    const rss = await on("journal.example.com", "/journal?format=rss");
    expect(rss.statusCode).toBe(200);
    expect(rss.body).toContain("<link>http://journal.example.com/journal");
    const products = await on("journal.example.com", "/api/commerce/feeds/instagram.xml");
    expect(products.body).toContain("<link>http://journal.example.com/</link>");
    // The platform address still answers, with the same canonical address.
    const platform = await on(
      `${(await api(owner, "GET", "")).json().site.identifier}.localhost`,
      "/journal",
    );
    expect(platform.statusCode).toBe(200);
    expect(platform.body).toContain('<link rel="canonical" href="http://journal.example.com/journal"');
  });

  it("answers 301 to the primary address from a secondary name and from www.", async () => {
    const secondary = await on("later.example.com", "/journal?page=2");
    expect(secondary.statusCode).toBe(301);
    expect(secondary.headers.location).toBe("http://journal.example.com/journal?page=2");
    const www = await on("www.journal.example.com", "/about");
    expect(www.statusCode).toBe(301);
    expect(www.headers.location).toBe("http://journal.example.com/about");
    // The owner may turn the www. redirect off: that name is then no site's.
    expect((await api(owner, "PATCH", "/domains", { redirectWww: false })).json().redirectWww).toBe(false);
    await expect.poll(async () => (await on("www.journal.example.com", "/about")).statusCode).toBe(404);
    await api(owner, "PATCH", "/domains", { redirectWww: true });
    // Making the secondary name primary turns the redirect around.
    await api(owner, "PUT", "/domains/later.example.com/primary");
    await expect
      .poll(async () => (await on("journal.example.com", "/x")).headers.location)
      .toBe("http://later.example.com/x");
    await api(owner, "PUT", "/domains/journal.example.com/primary");
  });

  it("answers 404 for a host that belongs to no site; localhost and IP addresses keep the default site", async () => {
    const unknown = await on("nobody.example.org", "/");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain(NO_WEBSITE_HERE);
    expect((await on("nobody.example.org", "/sitemap.xml")).statusCode).toBe(404);
    for (const host of ["localhost", "127.0.0.1:3000", "[::1]"]) {
      const res = await on(host, "/");
      expect(res.statusCode, host).toBe(200);
      expect(res.body, host).toContain("Atelier Demo");
    }
  });
});

describe("the TLS proxy's question and HSTS", () => {
  const ask = (domain: string) =>
    t.app.inject({ url: `/internal/tls/allowed?domain=${encodeURIComponent(domain)}` });

  it("allows certificates only for verified names of existing sites (and their www. pair)", async () => {
    expect((await ask("journal.example.com")).statusCode).toBe(200);
    expect((await ask("www.journal.example.com")).statusCode).toBe(200);
    expect((await ask("never.example.com")).statusCode).toBe(404);
    expect((await ask("random.example.net")).statusCode).toBe(404);
    expect((await ask("127.0.0.1")).statusCode).toBe(404);
    // PUBLIC_URL's own host is the platform's (http://localhost here); other localhost names never.
    expect((await ask("localhost")).statusCode).toBe(200);
    expect((await ask("demo.localhost")).statusCode).toBe(404);
  });

  it("sends Strict-Transport-Security only on HTTPS answers", async () => {
    const plain = await t.app.inject({ url: "/", headers: { host: "journal.example.com" } });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const secure = await t.app.inject({
      url: "/",
      headers: { host: "journal.example.com", "x-forwarded-proto": "https" },
    });
    expect(secure.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });
});
