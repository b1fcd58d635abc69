/**
 * Prints a syntax tree back to template text. Parsing the printed text gives a tree that
 * renders the same output (blocks left unclosed in the source are printed with their
 * `{.end}`; instructions the parser dropped with an error are not printed).
 */
import type { FormatterCall, OrNode, Path, TemplateAst, TemplateNode } from "./ast.js";

function path(p: Path): string {
  return p.join(".");
}

function args(list: readonly string[], delim: string): string {
  return list.length === 0 && !delim ? "" : delim + list.join(delim);
}

function formatters(calls: readonly FormatterCall[]): string {
  let out = "";
  for (const c of calls) out += `|${c.name}${args(c.args, c.delim)}`;
  return out;
}

/**
 * Text prints as is, except a `{` that would start an instruction or a comment when parsed
 * again (one followed by `##`, or whose next brace is a `}`): it prints as `{.meta-left}`.
 */
function text(t: string): string {
  if (t.indexOf("{") === -1) return t;
  let out = "";
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (ch !== "{") {
      out += ch;
      continue;
    }
    let risky = t.startsWith("##", i + 1);
    if (!risky) {
      for (let k = i + 1; k < t.length; k++) {
        if (t[k] === "{") break;
        if (t[k] === "}") {
          risky = true;
          break;
        }
      }
    }
    out += risky ? "{.meta-left}" : "{";
  }
  return out;
}

function block(nodes: readonly TemplateNode[]): string {
  let out = "";
  for (const n of nodes) out += printNode(n);
  return out;
}

function alt(node: OrNode | null): string {
  if (node === null) return "{.end}";
  const head = node.predicate === null ? "{.or}" : `{.or ${node.predicate}${args(node.args, node.delim)}}`;
  return head + block(node.body) + alt(node.alt);
}

function printNode(n: TemplateNode): string {
  switch (n.type) {
    case "text":
      return text(n.text);
    case "comment":
      return n.multiline ? `{##${n.text}##}` : `{#${n.text}}`;
    case "literal":
      return `{.${n.name}}`;
    case "variable":
      return `{${n.vars.map(path).join(",")}${formatters(n.formatters)}}`;
    case "section":
      return `{.section ${path(n.path)}}${block(n.body)}${alt(n.alt)}`;
    case "repeated": {
      const aw = n.alternatesWith !== null ? `{.alternates with}${block(n.alternatesWith)}` : "";
      return `{.repeated section ${path(n.path)}}${block(n.body)}${aw}${alt(n.alt)}`;
    }
    case "predicate":
      return `{.${n.predicate}${args(n.args, n.delim)}}${block(n.body)}${alt(n.alt)}`;
    case "if-predicate":
      return `{.if ${n.predicate}${args(n.args, n.delim)}}${block(n.body)}${alt(n.alt)}`;
    case "if": {
      let cond = path(n.vars[0]);
      for (let i = 1; i < n.vars.length; i++) cond += ` ${n.ops[i - 1]} ${path(n.vars[i])}`;
      return `{.if ${cond}}${block(n.body)}${alt(n.alt)}`;
    }
    case "if-expr":
      return `{.if ${n.code}}${block(n.body)}${alt(n.alt)}`;
    case "bindvar":
      return `{.var ${n.name} ${n.vars.map(path).join(",")}${formatters(n.formatters)}}`;
    case "ctxvar":
      return `{.ctx ${n.name} ${n.bindings.map((b) => `${b.key}=${path(b.path)}`).join(" ")}}`;
    case "macro":
      return `{.macro ${n.name}}${block(n.body)}{.end}`;
    case "eval":
      return `{.eval ${n.code}}`;
    case "include":
      return `{.include ${n.name}${args(n.args, n.delim)}}`;
    case "label":
      return `{.label ${n.name}}`;
    case "break":
      return n.label === null ? "{.break}" : `{.break ${n.label}}`;
    case "inject":
      return `{.inject ${n.name} ${n.path}${args(n.args, n.delim)}}`;
  }
}

/** Prints a template tree as template text. */
export function printTemplate(ast: TemplateAst): string {
  return block(ast.body);
}
