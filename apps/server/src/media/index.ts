import type { Config } from "../config.js";
import { localMediaStore } from "./local.js";
import { s3MediaStore } from "./s3.js";
import type { MediaStore } from "./store.js";

export type { MediaStore } from "./store.js";

/** The media store the configuration names: local disk under DATA_DIR, or the S3 bucket. */
export function createMediaStore(config: Config): MediaStore {
  return config.s3 ? s3MediaStore(config.s3) : localMediaStore(config.dataDir);
}
