/**
 * Route schemas compiled once per process, not once per app. Fastify makes new compilers for
 * every app it builds, so each app compiles every route's validator (Ajv) and serializer
 * (fast-json-stringify) again, and many routes make their schema objects afresh in each app
 * (inline in the plugin, or Fastify's lower-cased copy of a headers schema). Here a compiled
 * function is kept per schema's text, for the same external schemas and options, and compiled at
 * its first use: a server compiles the routes it is asked for, not all of them at start; the test
 * suite builds hundreds of apps and compiles each schema once.
 * (The text is the schema as Ajv and fast-json-stringify read it: TypeBox's symbol keys, which
 * neither reads, are left out.)
 */
import { AjvCompiler } from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";

type Route = { schema?: unknown; httpPart?: string };

/**
 * `build`'s compiler for the same external schemas and options, whose answers are kept per
 * route schema (by object, then by text and HTTP part) for the life of the process, and made by
 * `later` (which may put the compiling off until first use).
 */
function keptPerSchema<Fn, R extends Route>(
  build: (externalSchemas: unknown, options: unknown) => (route: R) => Fn,
  later: (compile: () => Fn) => Fn,
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
      const fn = byText.get(text) ?? later(() => compile(route));
      byText.set(text, fn);
      byObject.set(schema, fn);
      return fn;
    };
  };
}

type Validator = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * A validator compiled at its first use: a process compiles the routes it serves, not all of them
 * at start (most of a server's start-up time was Ajv compiling every route). Fastify reads
 * `schemaEnv` before each call and `errors` after a failed one; both come from the compiled one.
 */
function validatorAtFirstUse(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const get = () => {
    compiled ??= compile();
    return compiled;
  };
  const validate: Validator = (data, context) => {
    const fn = get();
    const answer = fn(data, context);
    validate.errors = fn.errors;
    return answer;
  };
  Object.defineProperty(validate, "schemaEnv", { get: () => get().schemaEnv });
  return validate;
}

/** A serializer compiled at its first use. */
function serializerAtFirstUse(compile: () => (doc: unknown) => string): (doc: unknown) => string {
  let compiled: ((doc: unknown) => string) | undefined;
  return (doc) => {
    compiled ??= compile();
    return compiled(doc);
  };
}

/** Ajv validators, from @fastify/ajv-compiler's pool of Ajv instances. */
export const buildValidator = keptPerSchema(
  AjvCompiler() as never,
  validatorAtFirstUse,
) as unknown as ReturnType<typeof AjvCompiler>;

/** fast-json-stringify serializers. */
export const buildSerializer = keptPerSchema(
  SerializerSelector() as never,
  serializerAtFirstUse,
) as unknown as ReturnType<typeof SerializerSelector>;
