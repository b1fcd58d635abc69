/** The published site's content calls: the like button of posts (simple liking). */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { classic, db, fx, useRenderApp } from "../../render/render.test-helper.js";
import { LIKING_OFF } from "./routes.js";

useRenderApp();

describe("the like button", () => {
  it("likes a post once per visitor, takes the like back, and refuses when liking is off", async () => {
    const b = classic();
    await b.visit("/journal/lighthouses");
    const [item] = await db()
      .select()
      .from(t.contentItems)
      .where(and(eq(t.contentItems.websiteId, fx.classic), eq(t.contentItems.urlId, "lighthouses")));
    const url = `/api/content/items/${item!.id}/like`;
    const start = item!.likeCount;
    const first = await b.request({ method: "POST", url });
    expect(first.json()).toEqual({ itemId: item!.id, likeCount: start + 1, liked: true });
    expect((await b.request({ method: "POST", url })).json().likeCount).toBe(start + 1);
    expect((await b.request({ url })).json()).toMatchObject({ liked: true });
    expect((await b.request({ method: "DELETE", url })).json()).toEqual({
      itemId: item!.id,
      likeCount: start,
      liked: false,
    });
    expect((await b.request({ method: "POST", url, withCrumb: false })).statusCode).toBe(403);
    expect((await b.request({ method: "POST", url: `/api/content/items/${newId()}/like` })).statusCode).toBe(
      404,
    );
    await db()
      .update(t.websiteSettings)
      .set({ simpleLikingEnabled: false })
      .where(eq(t.websiteSettings.websiteId, fx.classic));
    const off = await b.request({ method: "POST", url });
    expect(off.statusCode).toBe(403);
    expect(off.json().error.message).toBe(LIKING_OFF);
    await db()
      .update(t.websiteSettings)
      .set({ simpleLikingEnabled: true })
      .where(eq(t.websiteSettings.websiteId, fx.classic));
  });
});
