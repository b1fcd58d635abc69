/**
 * The template syntax tree produced by the parser (src/parser.ts), compiled to closures by
 * src/compiler.ts and printed back to template text by src/print.ts.
 */
import type { ExprProgram } from "./expr.js";
import type { Path } from "./path.js";

export type { Path };

/** Where an instruction starts in the template source (1-based line and column). */
export interface Loc {
  offset: number;
  line: number;
  column: number;
}

/** `|name` with its arguments, split on the delimiter that followed the name (`delim` is "" without args). */
export interface FormatterCall {
  name: string;
  args: string[];
  delim: string;
  loc: Loc;
}

export interface TextNode {
  type: "text";
  text: string;
  loc: Loc;
}

export interface CommentNode {
  type: "comment";
  text: string;
  multiline: boolean;
  loc: Loc;
}

/** `{a.b}`, `{a,b|fmt x|fmt2}` */
export interface VariableNode {
  type: "variable";
  vars: Path[];
  formatters: FormatterCall[];
  loc: Loc;
}

/** `{.meta-left}` `{.meta-right}` `{.newline}` `{.space}` `{.tab}` */
export interface LiteralNode {
  type: "literal";
  name: "meta-left" | "meta-right" | "newline" | "space" | "tab";
  value: string;
  loc: Loc;
}

/** A block an `{.or}` branch may follow: its body and the next branch. */
interface BranchingBlock {
  body: TemplateNode[];
  alt: OrNode | null;
  loc: Loc;
}

/** A predicate call: the predicate's name (with its `?`) and its arguments split on `delim`. */
interface PredicateCall {
  predicate: string;
  args: string[];
  delim: string;
}

/** The alternative branch of a block: `{.or}` or `{.or predicate? args}`. */
export interface OrNode extends BranchingBlock {
  type: "or";
  /** Predicate name with its `?`, or null for a plain `{.or}`. */
  predicate: string | null;
  args: string[];
  delim: string;
}

export interface SectionNode extends BranchingBlock {
  type: "section";
  path: Path;
}

export interface RepeatedNode extends BranchingBlock {
  type: "repeated";
  path: Path;
  /** `{.alternates with}` block, or null. */
  alternatesWith: TemplateNode[] | null;
}

/** `{.name? args}` */
export interface PredicateNode extends BranchingBlock, PredicateCall {
  type: "predicate";
}

/** `{.if a || b && c}` (legacy variable chain, evaluated left to right). */
export interface IfNode extends BranchingBlock {
  type: "if";
  vars: Path[];
  ops: ("&&" | "||")[];
}

/** `{.if predicate? args}` */
export interface IfPredicateNode extends BranchingBlock, PredicateCall {
  type: "if-predicate";
}

/** `{.if <expression>}` for anything that is not a variable chain or predicate. */
export interface IfExprNode extends BranchingBlock {
  type: "if-expr";
  code: string;
  expr: ExprProgram;
}

/** `{.var @name a,b|fmt}` */
export interface BindVarNode {
  type: "bindvar";
  name: string;
  vars: Path[];
  formatters: FormatterCall[];
  loc: Loc;
}

/** `{.ctx @name key=path key2=path2}` */
export interface CtxVarNode {
  type: "ctxvar";
  name: string;
  bindings: { key: string; path: Path }[];
  loc: Loc;
}

/** `{.macro name} ... {.end}` */
export interface MacroNode {
  type: "macro";
  name: string;
  body: TemplateNode[];
  loc: Loc;
}

/** `{.eval expression}` */
export interface EvalNode {
  type: "eval";
  code: string;
  expr: ExprProgram;
  loc: Loc;
}

/** `{.include name [output]}` */
export interface IncludeNode {
  type: "include";
  name: string;
  args: string[];
  delim: string;
  loc: Loc;
}

/** `{.inject @name path [args]}` */
export interface InjectNode {
  type: "inject";
  name: string;
  path: string;
  args: string[];
  delim: string;
  loc: Loc;
}

/** `{.label name}`: names the block (loop iteration, section, template) it appears in. */
export interface LabelNode {
  type: "label";
  name: string;
  loc: Loc;
}

/**
 * `{.break}` ends the innermost repeated section; `{.break name}` ends the block labelled
 * `name` (for a loop body: the current iteration). A break with no matching target does nothing.
 */
export interface BreakNode {
  type: "break";
  label: string | null;
  loc: Loc;
}

export type BlockNode =
  | SectionNode
  | RepeatedNode
  | PredicateNode
  | IfNode
  | IfPredicateNode
  | IfExprNode
  | MacroNode
  | OrNode;

/** An instruction of a template's body: any block but an `{.or}` branch, or a single instruction. */
export type TemplateNode =
  | Exclude<BlockNode, OrNode>
  | TextNode
  | CommentNode
  | VariableNode
  | LiteralNode
  | BindVarNode
  | CtxVarNode
  | EvalNode
  | IncludeNode
  | InjectNode
  | LabelNode
  | BreakNode;

/** A parsed template. */
export interface TemplateAst {
  type: "root";
  body: TemplateNode[];
}

/** An error with its position in the template (line and column are 1-based). */
export interface TemplateError {
  kind: "syntax" | "render";
  message: string;
  line: number;
  column: number;
}

/** "line:column message" */
export function formatError(e: TemplateError): string {
  return `${e.line}:${e.column} ${e.message}`;
}

/** Joins the segments of a path back into its text form. */
export function pathText(path: Path): string {
  return path.join(".");
}

/**
 * What a block outputs, in order: each run of adjacent text and literals as one string, each
 * other instruction as itself; comments output nothing and are left out.
 */
export function outputSteps(nodes: readonly TemplateNode[]): (string | TemplateNode)[] {
  const steps: (string | TemplateNode)[] = [];
  let text = "";
  for (const n of nodes) {
    if (n.type === "text" || n.type === "literal") {
      text += n.type === "text" ? n.text : n.value;
      continue;
    }
    if (n.type === "comment") continue;
    if (text) {
      steps.push(text);
      text = "";
    }
    steps.push(n);
  }
  if (text) steps.push(text);
  return steps;
}
