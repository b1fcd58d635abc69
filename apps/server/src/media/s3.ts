import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ServiceException,
} from "@aws-sdk/client-s3";
import { type MediaStore, checkKey } from "./store.js";

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Stored files are named by id and never change, so anyone may cache them for a year. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

function notFound(err: unknown): undefined {
  const status = (err as S3ServiceException).$metadata?.httpStatusCode;
  const name = (err as Error).name;
  if (status === 404 || name === "NotFound" || name === "NoSuchKey") return undefined;
  throw err;
}

export function s3Client(s: S3Settings): S3Client {
  return new S3Client({
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    credentials:
      s.accessKeyId && s.secretAccessKey
        ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey }
        : undefined,
  });
}

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, R2…): every process on every machine sees the same files. */
export function s3MediaStore(s: S3Settings, client = s3Client(s)): MediaStore {
  const Bucket = s.bucket;
  return {
    kind: "s3",
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checkKey(key),
          Body: bytes,
          ContentType: contentType,
          CacheControl: IMMUTABLE,
        }),
      );
    },
    async read(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        return res.Body ? Buffer.from(await res.Body.transformToByteArray()) : undefined;
      } catch (err) {
        return notFound(err);
      }
    },
    async size(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }));
        return res.ContentLength;
      } catch (err) {
        return notFound(err);
      }
    },
    async open(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        if (!res.Body || res.ContentLength === undefined) return undefined;
        return { body: res.Body as Readable, size: res.ContentLength };
      } catch (err) {
        return notFound(err);
      }
    },
    async delete(key) {
      // S3 answers a delete of a missing key with success, as the interface asks.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async list(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const res = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
        );
        for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key);
        ContinuationToken = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    close: async () => client.destroy(),
  };
}
