/** Multipart uploads for injected requests (media, site archives, imports), as a browser's form sends them. */

const BOUNDARY = "----atelier-test";

interface UploadedFile {
  bytes: Buffer;
  filename: string;
  contentType: string;
  /** The form field (default "file"). */
  field?: string;
}

/**
 * The headers and body of a multipart/form-data request: the plain `fields` first, then the
 * file; spread it into `app.inject`'s (or a Browser's) request options.
 */
export function multipartUpload(file: UploadedFile, fields: Record<string, string> = {}) {
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  return {
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      ...parts,
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  };
}
