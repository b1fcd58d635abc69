/** Which website a request's host names: the tenant every public and owner call is scoped to. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, connectVerifiedDomain, createTestApp } from "../../../test/harness.js";
import { storeSettings, websiteSettings, websites } from "../../db/schema.js";
import { NO_WEBSITE_HERE, hostName, settingsOf, siteAtHost, websiteForHost } from "./service.js";

let t: TestApp;
const db = () => t.database.db;
const site = (id: string, identifier: string, isDefault: boolean) => ({
  id,
  identifier,
  title: identifier,
  websiteType: 1,
  siteStatus: 1,
  billingStatus: 1,
  theme: "classic",
  isDefault,
});

beforeAll(async () => {
  t = await createTestApp();
  await db()
    .insert(websites)
    .values([
      site("home0000000000000000000a", "home", true),
      site("shop0000000000000000000b", "shop", false),
    ]);
  await db()
    .insert(websiteSettings)
    .values([{ websiteId: "home0000000000000000000a" }, { websiteId: "shop0000000000000000000b" }]);
  await db()
    .insert(storeSettings)
    .values([
      { websiteId: "home0000000000000000000a" },
      { websiteId: "shop0000000000000000000b", currency: "EUR" },
    ]);
  await connectVerifiedDomain(db(), "shop0000000000000000000b", "shop.example.com");
});
afterAll(() => t.close());

describe("the host of a request", () => {
  it("is read without its port, in lower case, IPv6 addresses kept whole", () => {
    expect(hostName("Shop.Example.COM:8080")).toBe("shop.example.com");
    expect(hostName("[::1]:3000")).toBe("[::1]");
    expect(hostName(" localhost ")).toBe("localhost");
    expect(hostName(undefined)).toBe("");
  });

  it("names a site by its verified domain, then by <identifier>.localhost, the default site on its own names", async () => {
    const idOf = async (host: string | undefined) => (await websiteForHost(db(), host))?.identifier;
    expect(await idOf("SHOP.example.com:443")).toBe("shop");
    expect(await idOf("shop.localhost:3000")).toBe("shop");
    expect(await idOf("home.localhost")).toBe("home");
    for (const bare of ["localhost:3000", "127.0.0.1", "[::1]:3000"]) {
      expect(await idOf(bare), String(bare)).toBe("home");
    }
    // Any other name is no site's: not the default one.
    for (const other of ["atelier-box", "unknown.example.com", undefined]) {
      expect(await idOf(other), String(other)).toBeUndefined();
    }
  });

  it("names no site for an unknown sub-domain of localhost, and answers 404 there", async () => {
    expect(await websiteForHost(db(), "nobody.localhost")).toBeUndefined();
    await expect(siteAtHost(db(), "nobody.localhost")).rejects.toMatchObject({
      statusCode: 404,
      message: NO_WEBSITE_HERE,
    });
    expect((await siteAtHost(db(), "shop.example.com")).id).toBe("shop0000000000000000000b");
  });

  it("reads the site's own settings and store settings", async () => {
    const { site: settings, store } = await settingsOf(db(), "shop0000000000000000000b");
    expect(settings.websiteId).toBe("shop0000000000000000000b");
    expect(store.currency).toBe("EUR");
  });
});
