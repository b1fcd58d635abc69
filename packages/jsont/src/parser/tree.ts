/** Assembling the syntax tree: text, instructions, and the stack of open blocks. */
import type { OrNode, RepeatedNode, TemplateAst, TemplateNode } from "../ast.js";
import { TagCursor } from "./cursor.js";

/** Blocks nested deeper than this are refused (kept as text), so compiling cannot overflow the stack. */
const MAX_NESTING = 500;

/** An open block while assembling the tree. */
interface Open {
  node: TemplateNode | OrNode | null; // null for the root
  /** Where the next instruction goes. */
  target: TemplateNode[];
  /** The block that was opened (the first in an `.or` chain), for error messages. */
  opener: TemplateNode | null;
  inAlternates: boolean;
}

/** The node types an `{.or}` branch may follow. */
const HAS_OR_BRANCH = new Set(["or", "section", "repeated", "predicate", "if", "if-predicate", "if-expr"]);

export class TreeBuilder extends TagCursor {
  protected readonly root: TemplateAst = { type: "root", body: [] };
  private cur: Open;
  private readonly stack: Open[] = [];

  constructor(src: string) {
    super(src);
    this.cur = { node: null, target: this.root.body, opener: null, inAlternates: false };
  }

  protected text(start: number, end: number): void {
    if (start >= end) return;
    const target = this.cur.target;
    const last = target[target.length - 1];
    if (last !== undefined && last.type === "text") {
      last.text += this.src.slice(start, end);
      return;
    }
    target.push({ type: "text", text: this.src.slice(start, end), loc: this.loc(start) });
  }

  /** Appends a finished instruction to the current block. */
  protected add(node: TemplateNode): void {
    this.cur.target.push(node);
  }

  /** Appends a block instruction and makes it the current block. */
  protected open(node: TemplateNode & { body: TemplateNode[] }): boolean {
    if (this.stack.length >= MAX_NESTING) {
      this.error(`blocks are nested too deeply (limit ${MAX_NESTING})`);
      return false;
    }
    this.cur.target.push(node);
    this.stack.push(this.cur);
    this.cur = { node, target: node.body, opener: node, inAlternates: false };
    return true;
  }

  protected closeBlock(): void {
    if (this.cur.node === null) {
      this.error("{.end} is not allowed at the root: there is no open block");
      return;
    }
    this.cur = this.stack.pop()!;
  }

  /** Closes what is still open at the end of the template, each with an error. */
  protected closeAll(): void {
    while (this.cur.node !== null) {
      const opener = this.cur.opener!;
      this.error(`unclosed block: ${describe(opener)} has no {.end}`, opener.loc);
      this.cur = this.stack.pop()!;
    }
  }

  protected orBranch(node: OrNode): void {
    const cur = this.cur.node;
    if (cur === null) {
      this.error(`${describe(node)} is not allowed at the root: there is no open block`);
      return;
    }
    if (cur.type === "macro") {
      this.error(`${describe(node)} is not allowed inside ${describe(cur)}`);
      return;
    }
    if (cur.type === "or" && cur.predicate === null) {
      this.error(`dead code: ${describe(node)} follows an {.or} without a predicate`);
      return;
    }
    if (!HAS_OR_BRANCH.has(cur.type)) return;
    (cur as { alt: OrNode | null }).alt = node;
    this.cur = { node, target: node.body, opener: this.cur.opener, inAlternates: false };
  }

  protected alternatesWith(): void {
    const cur = this.cur.node;
    if (cur === null || cur.type !== "repeated" || this.cur.inAlternates) {
      this.error(
        cur === null
          ? "{.alternates with} is not allowed at the root"
          : `{.alternates with} is not allowed inside ${describe(cur)}`,
      );
      return;
    }
    const rep = cur as RepeatedNode;
    rep.alternatesWith = [];
    this.cur = { node: rep, target: rep.alternatesWith, opener: this.cur.opener, inAlternates: true };
  }
}

/** A short description of an instruction for error messages. */
function describe(node: TemplateNode | OrNode): string {
  switch (node.type) {
    case "section":
      return `{.section ${node.path.join(".")}}`;
    case "repeated":
      return `{.repeated section ${node.path.join(".")}}`;
    case "predicate":
      return `{.${node.predicate}}`;
    case "if":
    case "if-predicate":
    case "if-expr":
      return "{.if}";
    case "macro":
      return `{.macro ${node.name}}`;
    case "or":
      return node.predicate ? `{.or ${node.predicate}}` : "{.or}";
    default:
      return `{${node.type}}`;
  }
}
