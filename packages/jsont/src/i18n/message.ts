/**
 * ICU-style messages (`{msg|message name=person.name count}`): plural, selectordinal and
 * select evaluated by `@phensley/cldr`'s message engine, plus the tags `decimal` / `number`,
 * `money` / `currency`, `datetime`, `datetime-interval` and `unit`.
 *
 * Arguments are context paths. `name=path` (or `name:path`) also binds the value to a name;
 * every argument, named or not, takes the next position (`{0}`, `{1}`, …).
 *
 * Plural and selectordinal choose the exact value's branch, else the branch of the value's
 * plural category; a category without a branch prints nothing (`other` is the branch of the
 * category "other", not a catch-all), as the reference engines do.
 */
import {
  buildMessageMatcher,
  type CLDR,
  Decimal,
  type MessageArg,
  type MessageArgConverter,
  type MessageCode,
  MessageEngine,
  type MessageFormatFuncMap,
  type MessageMatcher,
  type MessageNamedArgs,
  type PluralRules,
  parseMessagePattern,
  pluralRules,
} from "@phensley/cldr";
import { Ctx } from "../context.js";
import { splitPath } from "../expr.js";
import type { RenderContext } from "../types.js";
import { legacy } from "../util/compat.js";
import { asNumber, asString, isNumber, isObject, numberValue } from "../util/values.js";
import { decimalFormatArgs, formatDecimal, toDecimal } from "./number.js";
import { formatMoney, moneyParts } from "./money.js";
import { datetimeOptions, intervalOptions } from "./options.js";
import { formatInterval } from "./interval.js";
import { formatUnits, rejoinUnitLists, unitArgs } from "./units.js";

const ZERO = new Decimal(0);
const ONE = new Decimal(1);

/** The amount of a money object as a JSON value, if it is one. */
function moneyAmount(v: unknown): unknown {
  if (!isObject(v)) return undefined;
  if (Object.hasOwn(v, "decimalValue")) return v.decimalValue;
  if (Object.hasOwn(v, "value")) return v.value;
  return undefined;
}

/** Converts template values for the message formatter's placeholders, plurals and selects. */
class JsonArgConverter implements MessageArgConverter {
  asString(arg: MessageArg | undefined): string {
    if (arg instanceof Decimal) return arg.toString();
    const amount = moneyAmount(arg);
    if (amount !== undefined) return asString(amount);
    return asString(arg);
  }

  asDecimal(arg: MessageArg | undefined): Decimal {
    if (arg instanceof Decimal) return arg;
    if (typeof arg === "boolean") return arg ? ONE : ZERO;
    const amount = moneyAmount(arg);
    return toDecimal(amount !== undefined ? amount : arg) ?? ZERO;
  }
}

/** Epoch milliseconds of a value (a number or numeric string), or NaN. */
export function epochOf(v: unknown): number {
  if (isNumber(v)) return numberValue(v);
  if (typeof v === "string" && v.trim() !== "") return asNumber(v.trim());
  return Number.NaN;
}

/** Parsed messages are cached (per locale engine) up to this many. */
const MESSAGE_CACHE_SIZE = 100;

const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

// Op codes of parsed messages (MessageOpType / PluralChoiceType of @phensley/messageformat).
const OP_PLURAL = 2;
const OP_SELECT = 3;
const OP_BLOCK = 4;
const OP_NOOP = 5;
const CHOICE_CATEGORY = 1;

/** Parsed messages are positional tuples. */
type Tuple = unknown[];

/** Gives every plural category a branch, empty where the message has none (see above). */
function withExplicitCategories(code: MessageCode): MessageCode {
  const c = code as unknown as Tuple;
  const rec = (x: unknown): unknown => withExplicitCategories(x as MessageCode);
  let out: Tuple;
  switch (c[0]) {
    case OP_BLOCK:
      out = [OP_BLOCK, (c[1] as Tuple).map(rec)];
      break;
    case OP_SELECT:
      out = [OP_SELECT, c[1], (c[2] as Tuple[]).map((ch) => [ch[0], rec(ch[1])])];
      break;
    case OP_PLURAL: {
      const choices = (c[4] as Tuple[]).map((ch) => [ch[0], ch[1], rec(ch[2])]);
      const present = new Set(choices.filter((ch) => ch[0] === CHOICE_CATEGORY).map((ch) => ch[1]));
      for (const category of CATEGORIES) {
        if (!present.has(category)) choices.push([CHOICE_CATEGORY, category, [OP_NOOP]]);
      }
      out = [OP_PLURAL, c[1], c[2], c[3], choices];
      break;
    }
    default:
      return code;
  }
  return out as unknown as MessageCode;
}

interface Engine {
  plurals: PluralRules;
  converter: MessageArgConverter;
  formatters: MessageFormatFuncMap;
  matcher: MessageMatcher;
  cache: Map<string, MessageCode>;
  /** The zone the date tags use; set before each format call. */
  state: { zoneId: string };
}

const engines = new WeakMap<CLDR, Engine>();

function engineFor(cldr: CLDR): Engine {
  let engine = engines.get(cldr);
  if (engine !== undefined) return engine;
  const converter = new JsonArgConverter();
  const state: { zoneId: string } = { zoneId: "UTC" };

  const decimal = (args: MessageArg[], options: string[]): string => {
    if (args.length === 0 || args[0] === undefined || args[0] === null) return "";
    const d = converter.asDecimal(args[0]);
    return formatDecimal(cldr, d, decimalFormatArgs(options));
  };
  const money = (args: MessageArg[], options: string[]): string => {
    const m = args.length > 0 ? moneyParts(args[0], true) : undefined;
    return m === undefined ? "" : formatMoney(cldr, m, options);
  };
  const datetime = (args: MessageArg[], options: string[]): string => {
    const epoch = args.length > 0 ? epochOf(args[0]) : Number.NaN;
    if (!Number.isFinite(epoch)) return "";
    return cldr.Calendars.formatDate({ date: epoch, zoneId: state.zoneId }, datetimeOptions(options));
  };
  const interval = (args: MessageArg[], options: string[]): string => {
    if (args.length < 2) return "";
    const start = epochOf(args[0]);
    const end = epochOf(args[1]);
    if (!Number.isFinite(start) || !Number.isFinite(end)) return "";
    return formatInterval(cldr, start, end, state.zoneId, intervalOptions(options));
  };
  const unit = (args: MessageArg[], options: string[]): string => {
    const d = args.length > 0 ? toDecimal(moneyAmount(args[0]) ?? args[0]) : undefined;
    return d === undefined ? "" : formatUnits(cldr, d, unitArgs(rejoinUnitLists(options)));
  };

  const formatters: MessageFormatFuncMap = {
    decimal,
    number: decimal,
    money,
    currency: money,
    datetime,
    "datetime-interval": interval,
    unit,
    units: unit,
  };
  const bundle = cldr.General.bundle();
  engine = {
    plurals: pluralRules.get(bundle.language(), bundle.region()),
    converter,
    formatters,
    matcher: buildMessageMatcher(Object.keys(formatters)),
    cache: new Map(),
    state,
  };
  engines.set(cldr, engine);
  return engine;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Index of the name/value delimiter of a named argument ('=' or ':'), or -1 for a positional
 * one. Legacy, the first '=' or ':' delimits. From compatibility level 2 only a plain
 * identifier can be a name and a colon that starts "//" belongs to a URL, so
 * `http://example.com` and `a.b=c` are positional.
 */
function delimiter(arg: string, legacyUrlSplit: boolean): number {
  for (let i = 0; i < arg.length; i++) {
    const c = arg[i];
    if (c !== "=" && c !== ":") continue;
    if (legacyUrlSplit) return i;
    if (c === ":" && arg[i + 1] === "/" && arg[i + 2] === "/") continue;
    return IDENTIFIER.test(arg.slice(0, i)) ? i : -1;
  }
  return -1;
}

/**
 * Resolves an argument path. The formatted message is the current node while formatters
 * run; a bare `@` is the node around it (the node the message is used in). Other paths
 * search from the message's own frame up the stack, so at the legacy levels (below 2) an
 * `@.name` path reads a member of the message text itself and comes out missing; from
 * level 2 paths start at the frame around the message, so `@.name` reaches that node.
 */
function resolveArg(path: string, ctx: RenderContext): unknown {
  if (!(ctx instanceof Ctx)) return ctx.resolve(path);
  const around = ctx.frame.parent ?? ctx.frame;
  if (path === "@") return around.node;
  return ctx.resolveFrom(splitPath(path), legacy(ctx, "SUBPATH_PARENT_SCOPE") ? ctx.frame : around);
}

/**
 * Resolves the formatter's arguments into positional and named message arguments. A named
 * argument (`name=path` or `name:path`) also takes the next positional slot. Legacy, an
 * argument that resolves to nothing is empty; from level 2 it stands for its own text
 * (`{m|message 42}`, `{m|message http://example.com}`).
 */
export function messageArgs(args: readonly string[], ctx: RenderContext): [MessageArg[], MessageNamedArgs] {
  const positional: MessageArg[] = [];
  const named: MessageNamedArgs = {};
  const legacyArgs = legacy(ctx, "MESSAGE_ARG_URL_SPLIT");
  const argValue = (path: string): MessageArg => {
    const v = resolveArg(path, ctx);
    return v === undefined && !legacyArgs ? path : (v as MessageArg);
  };
  for (const arg of args) {
    const i = delimiter(arg, legacyArgs);
    if (i === -1) {
      positional.push(argValue(arg));
    } else {
      const value = argValue(arg.slice(i + 1));
      named[arg.slice(0, i)] = value;
      positional.push(value);
    }
  }
  return [positional, named];
}

/** Formats an ICU-style message with resolved arguments; date tags use `zoneId`. */
export function formatMessage(
  cldr: CLDR,
  message: string,
  positional: MessageArg[],
  named: MessageNamedArgs,
  zoneId: string,
): string {
  const engine = engineFor(cldr);
  engine.state.zoneId = zoneId;
  let code = engine.cache.get(message);
  if (code === undefined) {
    code = withExplicitCategories(parseMessagePattern(message, engine.matcher));
    if (engine.cache.size >= MESSAGE_CACHE_SIZE) {
      const oldest = engine.cache.keys().next().value as string;
      engine.cache.delete(oldest);
    }
    engine.cache.set(message, code);
  }
  return new MessageEngine(engine.plurals, engine.converter, engine.formatters, code).evaluate(
    positional,
    named,
  );
}
