/**
 * Route schemas compiled once per process, not once per app. Fastify makes new compilers for
 * every app it builds, so each app compiles every route's validator (Ajv) and serializer
 * (fast-json-stringify) again. Here one validator compiler (one Ajv, whose cache is keyed by the
 * schema object) and one serializer per schema object serve every app of the process: a server
 * builds one app and sees no change; the test suite builds hundreds and skips most of that work.
 */
import { AjvCompiler } from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";

type Serializer = (doc: unknown) => string;
type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Ajv compilers pooled by their external schemas and options (@fastify/ajv-compiler's own pool). */
export const buildValidator = AjvCompiler();

const serializersBySetup = new Map<string, WeakMap<object, Serializer>>();
const buildDefaultSerializer = SerializerSelector();

/** fast-json-stringify's compiler, its answers kept per schema object for the same external schemas and options. */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = buildDefaultSerializer(externalSchemas, options);
  const setup = JSON.stringify(externalSchemas ?? {}) + JSON.stringify(options ?? {});
  const cache = serializersBySetup.get(setup) ?? new WeakMap<object, Serializer>();
  serializersBySetup.set(setup, cache);
  return (route) => {
    const schema = route.schema;
    if (typeof schema !== "object" || schema === null) return compile(route);
    const kept = cache.get(schema) ?? compile(route);
    cache.set(schema, kept);
    return kept;
  };
};
