/**
 * `npm run media:to-s3`: copies DATA_DIR/media and DATA_DIR/downloads to the bucket that MEDIA_STORE=s3
 * and the S3_* variables name. Safe to run again (and while the site runs): it copies only
 * files the bucket does not hold yet, and prints what it did.
 */
import { loadConfig } from "../config.js";
import { copyLocalMedia } from "./copy-to-s3.js";
import { s3MediaStore } from "./s3.js";

const config = loadConfig({ MEDIA_STORE: "s3", ...process.env });
if (!config.s3) throw new Error("Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, credentials) to copy media.");
const store = s3MediaStore(config.s3);
const verbose = process.argv.includes("--verbose");
try {
  console.log(`copying ${config.dataDir}/{media,downloads} to s3://${config.s3.bucket} …`);
  const r = await copyLocalMedia(config.dataDir, store, (key, copied) => {
    if (verbose) console.log(`${copied ? "copied " : "present"} ${key}`);
  });
  console.log(`media:to-s3: ${r.copied} copied (${r.bytes} bytes), ${r.skipped} already in the bucket`);
} finally {
  await store.close();
}
