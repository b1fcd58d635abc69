/** Test helpers for site archives: multipart upload of an archive, and HTML/JSON normalising. */
import type { Browser } from "../../../test/harness.js";

const BOUNDARY = "----atelier-archive-test";

export function multipartFile(bytes: Buffer, filename = "site.atelier.zip", field = "file") {
  return {
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  };
}

export async function importFile(owner: Browser, bytes: Buffer, url = "/api/owner/sites/import") {
  return owner.request({ method: "POST", url, ...multipartFile(bytes) });
}

/** Ids, hosts and per-response nonces replaced, so two sites' output can be compared. */
export function normalise(text: string, hosts: string[]): string {
  let out = text;
  for (const h of hosts) out = out.split(h).join("HOST");
  return out
    .replace(/(?<![a-f0-9])[a-f0-9]{24}(?![a-f0-9])/g, "ID")
    .replace(/nonce="[^"]*"/g, 'nonce="N"')
    .replace(/crumb[=:"' ]+[\w-]{10,}/g, "crumb=C");
}
