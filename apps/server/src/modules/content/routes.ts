import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { forbidden, notFound } from "../../http/errors.js";
import { settingsOf, siteAtHost } from "../sites/service.js";
import { changeLikeCount, itemById } from "./service.js";
import { isId } from "../../lib/ids.js";
import { Id } from "../../http/schemas.js";

/** Cookie listing the items this visitor liked (simple liking: one like per visitor and item). */
const LIKES_COOKIE = "atelier_likes";
const MAX_REMEMBERED_LIKES = 200;
export const LIKING_OFF = "Liking is turned off on this site.";

const Params = Type.Object({ itemId: Id });
const LikeAnswer = Type.Object({ itemId: Type.String(), likeCount: Type.Integer(), liked: Type.Boolean() });

function likedIds(request: FastifyRequest): string[] {
  const raw = request.cookies[LIKES_COOKIE] ?? "";
  return raw.split(".").filter((id) => isId(id));
}

/** Published-site content calls: the like button (simple liking). */
export const contentRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;
  const secure = config.publicUrl.startsWith("https:");

  /**
   * The site of the host and its published item named in the path; with `liking`, refused with
   * 403 where the site has liking turned off.
   */
  async function siteItem(request: FastifyRequest, liking: boolean) {
    const site = await siteAtHost(db, request.headers.host);
    if (liking) {
      const { site: settings } = await settingsOf(db, site.id);
      if (!settings?.simpleLikingEnabled) throw forbidden(LIKING_OFF);
    }
    const { itemId } = request.params as { itemId: string };
    const item = await itemById(db, site.id, itemId);
    if (!item) throw notFound("No such item.");
    return { site, item };
  }

  function remember(reply: FastifyReply, ids: string[]) {
    reply.setCookie(LIKES_COOKIE, ids.slice(-MAX_REMEMBERED_LIKES).join("."), {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure,
      maxAge: 365 * 86400,
    });
  }

  /** Likes (`liked`) or unlikes an item, once per visitor: a second like or unlike changes nothing. */
  const likeRoute = (method: "post" | "delete", liked: boolean) =>
    app[method](
      "/api/content/items/:itemId/like",
      {
        preHandler: requireCrumb,
        config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
        schema: { tags: ["site"], params: Params, response: { 200: LikeAnswer } },
      },
      async (request, reply) => {
        const { site, item } = await siteItem(request, true);
        const ids = likedIds(request);
        if (ids.includes(item.id) === liked) return { itemId: item.id, likeCount: item.likeCount, liked };
        const likeCount = (await changeLikeCount(db, site.id, item.id, liked ? 1 : -1)) ?? item.likeCount;
        remember(reply, liked ? [...ids, item.id] : ids.filter((id) => id !== item.id));
        return { itemId: item.id, likeCount, liked };
      },
    );
  likeRoute("post", true);
  likeRoute("delete", false);

  app.get(
    "/api/content/items/:itemId/like",
    { schema: { tags: ["site"], params: Params, response: { 200: LikeAnswer } } },
    async (request) => {
      const { item } = await siteItem(request, false);
      return { itemId: item.id, likeCount: item.likeCount, liked: likedIds(request).includes(item.id) };
    },
  );
};
