/**
 * Test helper: what a visitor sees once an owner's change is published. Pages are invalidated
 * by content-version announcements (PostgreSQL NOTIFY), which arrive a moment after the commit on
 * a PostgreSQL server: the helper asks again for up to three seconds until the page shows it.
 */
import type { FastifyInstance } from "fastify";

interface Published {
  status: number;
  /** Page contexts are free-form JSON. */
  json: any;
  body: string;
}

export async function published(
  app: FastifyInstance,
  path: string,
  until: (page: Published) => boolean,
  host = "localhost",
): Promise<Published> {
  const started = Date.now();
  for (;;) {
    const res = await app.inject({
      url: `${path}${path.includes("?") ? "&" : "?"}format=json`,
      headers: { host },
    });
    let json: unknown;
    try {
      json = res.json();
    } catch {
      json = undefined;
    }
    const page = { status: res.statusCode, json, body: res.body };
    if (until(page) || Date.now() - started > 3000) return page;
    await new Promise((r) => setTimeout(r, 25));
  }
}
