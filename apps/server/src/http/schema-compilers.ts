/**
 * Route schemas compiled once per process, not once per app. Fastify makes new compilers for
 * every app it builds, so each app compiles every route's validator (Ajv) and serializer
 * (fast-json-stringify) again, and many routes make their schema objects afresh in each app
 * (inline in the plugin, or Fastify's lower-cased copy of a headers schema). Here a compiled
 * function is kept per schema's text, for the same external schemas and options: a server builds
 * one app and sees no change; the test suite builds hundreds and skips most of that work.
 * (The text is the schema as Ajv and fast-json-stringify read it: TypeBox's symbol keys, which
 * neither reads, are left out.)
 */
import { AjvCompiler } from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";

type Route = { schema?: unknown; httpPart?: string };

/**
 * `build`'s compiler for the same external schemas and options, whose answers are kept per
 * route schema (by object, then by text and HTTP part) for the life of the process.
 */
function keptPerSchema<Fn, R extends Route>(
  build: (externalSchemas: unknown, options: unknown) => (route: R) => Fn,
) {
  const bySetup = new Map<string, { byObject: WeakMap<object, Fn>; byText: Map<string, Fn> }>();
  return (externalSchemas: unknown, options: unknown) => {
    const compile = build(externalSchemas, options);
    const setup = JSON.stringify(externalSchemas ?? {}) + JSON.stringify(options ?? {});
    let kept = bySetup.get(setup);
    if (!kept) {
      kept = { byObject: new WeakMap(), byText: new Map() };
      bySetup.set(setup, kept);
    }
    const { byObject, byText } = kept;
    return (route: R): Fn => {
      const schema = route.schema;
      if (typeof schema !== "object" || schema === null) return compile(route);
      const known = byObject.get(schema);
      if (known) return known;
      const text = `${route.httpPart ?? ""} ${JSON.stringify(schema)}`;
      const fn = byText.get(text) ?? compile(route);
      byText.set(text, fn);
      byObject.set(schema, fn);
      return fn;
    };
  };
}

/** Ajv validators, from @fastify/ajv-compiler's pool of Ajv instances. */
export const buildValidator = keptPerSchema(AjvCompiler() as never) as unknown as ReturnType<
  typeof AjvCompiler
>;

/** fast-json-stringify serializers. */
export const buildSerializer = keptPerSchema(SerializerSelector() as never) as unknown as ReturnType<
  typeof SerializerSelector
>;
