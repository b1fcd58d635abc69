/**
 * A real S3-compatible server for tests: s3rver (npm) on a free port with its files in a temp
 * folder, and the environment that points Atelier's media store at it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface TestBucket {
  endpoint: string;
  bucket: string;
  /** MEDIA_STORE=s3 and the S3_* variables for this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3rver(bucket = "atelier-media"): Promise<TestBucket> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "atelier-s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      MEDIA_STORE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
