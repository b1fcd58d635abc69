/** Response schemas that many routes share. */
import { type TSchema, Type } from "@sinclair/typebox";
import { ID_PATTERN } from "../lib/ids.js";

/** An id in a path, a query or a body. */
export const Id = Type.String({ pattern: ID_PATTERN });

/** The body of an error answer (errors.ts): its code, message and the field errors. */
export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      fields: Type.Optional(Type.Record(Type.String(), Type.String())),
    }),
  },
  { additionalProperties: true },
);

/** The error answers of a route, one error body for each status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorSchema]));
}

/** An object answered as it is, described but not spelled out property by property. */
export const Loose = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** The query of an owner's list paged by offset: `limit` (1 to 200, 50 unless asked) and `offset`. */
export const OffsetPaging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

/** The page a request asked for, with the defaults of `OffsetPaging`. */
export function offsetPage(query: { limit?: number; offset?: number }) {
  return { limit: query.limit ?? 50, offset: query.offset ?? 0 };
}

/** A page of a list paged by cursor: the items under `key`, then `hasNextPage` and `nextPageCursor`. */
export function CursorPage(key: string, item: TSchema) {
  return Type.Object({
    [key]: Type.Array(item),
    hasNextPage: Type.Boolean(),
    nextPageCursor: Type.Union([Type.String(), Type.Null()]),
  });
}

/** Path params taken as plain strings of at most 64 characters each; the service checks what they name. */
export function StringParams(...names: string[]) {
  return Type.Object(Object.fromEntries(names.map((name) => [name, Type.String({ maxLength: 64 })])));
}
