/**
 * The small page a link in an email opens on the site (unsubscribe, a recovery link that cannot
 * restore): the site's own address, plain HTML, never cached.
 */
import type { FastifyReply } from "fastify";
import { escapeHtml } from "../../lib/escape.js";

export function linkPage(reply: FastifyReply, status: number, title: string, text: string, extra = "") {
  return reply
    .status(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5">` +
        `<h1 style="font-size:1.5rem">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${extra}<p><a href="/">Continue shopping</a></p></body></html>`,
    );
}
