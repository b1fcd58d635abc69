/**
 * Rich text with Tiptap: headings, bold, italic, underline, strike, lists, quote, links and
 * images from the media library (aligned left, centre or right), as the allow-listed HTML the
 * server keeps. Every tool is a real button with a name.
 */
import Image from "@tiptap/extension-image";
import Link from "@tiptap/extension-link";
import { Placeholder } from "@tiptap/extensions";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useRef, useState } from "react";
import type { MediaItem } from "../api.js";
import { MediaPicker, useMedia } from "./media.js";

/** An image inside the text, with the alignment class the server keeps (image-left, -center, -right). */
const TextImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      class: {
        default: null,
        parseHTML: (el: HTMLElement) => el.getAttribute("class"),
        renderHTML: (attrs: { class?: string | null }) => (attrs.class ? { class: attrs.class } : {}),
      },
    };
  },
}).configure({ inline: true });

/** The media picker, inserting the chosen image. */
function InsertImage({ onInsert, onClose }: { onInsert: (m: MediaItem) => void; onClose: () => void }) {
  const media = useMedia();
  return (
    <MediaPicker
      value={[]}
      onClose={onClose}
      onChange={(ids) => {
        const m = media.data?.find((x) => x.id === ids[0]);
        if (m) onInsert(m);
      }}
    />
  );
}

function typingElsewhere(): boolean {
  const active = document.activeElement as HTMLElement | null;
  return Boolean(active?.closest("input, textarea, select, [contenteditable='true']"));
}

export default function RichTextEditor({
  value,
  onChange,
  labelledBy,
  autoFocus,
  placeholder,
  style,
}: {
  value: string;
  onChange: (html: string) => void;
  labelledBy?: string;
  autoFocus?: boolean;
  /** Shown while the text is empty and the editor has no focus; never part of the value. */
  placeholder?: string;
  style?: React.CSSProperties;
}) {
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [1, 2, 3, 4] }, link: false, code: false, codeBlock: false }),
      Link.configure({ openOnClick: false, autolink: true, protocols: ["mailto", "tel"] }),
      Placeholder.configure({ placeholder: placeholder ?? "" }),
      TextImage,
    ],
    content: value || "<p></p>",
    // Never take the focus from a field the owner is already typing in (the in-place editor
    // opens a moment after a text block is added, when the frame shows it).
    autofocus: autoFocus && !typingElsewhere() ? "end" : false,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        ...(labelledBy ? { "aria-labelledby": labelledBy } : { "aria-label": "Text" }),
      },
    },
    onUpdate: ({ editor: e }) => changeRef.current(e.isEmpty ? "" : e.getHTML()),
  });
  // Outside changes (undo in the page editor) replace the content when it differs.
  useEffect(() => {
    if (!editor || editor.isDestroyed || editor.isFocused) return;
    if (value !== editor.getHTML() && !(value === "" && editor.isEmpty)) {
      editor.commands.setContent(value || "<p></p>", { emitUpdate: false });
    }
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            bold: e.isActive("bold"),
            italic: e.isActive("italic"),
            underline: e.isActive("underline"),
            strike: e.isActive("strike"),
            h1: e.isActive("heading", { level: 1 }),
            h2: e.isActive("heading", { level: 2 }),
            h3: e.isActive("heading", { level: 3 }),
            bullet: e.isActive("bulletList"),
            ordered: e.isActive("orderedList"),
            quote: e.isActive("blockquote"),
            link: e.isActive("link"),
            image: e.isActive("image"),
            imageClass: (e.getAttributes("image").class as string | null | undefined) ?? null,
          }
        : undefined,
  });
  const [picking, setPicking] = useState(false);
  if (!editor || editor.isDestroyed) return null;
  const chain = () => editor.chain().focus();
  // The short mark shows; screen readers hear the full name (the mark is not a word to match, WCAG 2.5.3).
  const tool = (label: string, text: string, active: boolean | undefined, run: () => void) => (
    <button
      type="button"
      title={label}
      aria-pressed={Boolean(active)}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{label}</span>
    </button>
  );
  const setLink = () => {
    const previous = editor.getAttributes("link").href as string | undefined;
    const url = window.prompt("Link address (https://…, /page, mailto:…)", previous ?? "https://");
    if (url === null) return;
    if (url.trim() === "") chain().extendMarkRange("link").unsetLink().run();
    else chain().extendMarkRange("link").setLink({ href: url.trim() }).run();
  };
  return (
    <div className="rte" style={style}>
      <div className="rte-bar" role="toolbar" aria-label="Text formatting">
        {tool("Heading 1", "H1", state?.h1, () => chain().toggleHeading({ level: 1 }).run())}
        {tool("Heading 2", "H2", state?.h2, () => chain().toggleHeading({ level: 2 }).run())}
        {tool("Heading 3", "H3", state?.h3, () => chain().toggleHeading({ level: 3 }).run())}
        {tool("Bold", "B", state?.bold, () => chain().toggleBold().run())}
        {tool("Italic", "I", state?.italic, () => chain().toggleItalic().run())}
        {tool("Underline", "U", state?.underline, () => chain().toggleUnderline().run())}
        {tool("Strikethrough", "S", state?.strike, () => chain().toggleStrike().run())}
        {tool("Bulleted list", "•", state?.bullet, () => chain().toggleBulletList().run())}
        {tool("Numbered list", "1.", state?.ordered, () => chain().toggleOrderedList().run())}
        {tool("Quote", "❝", state?.quote, () => chain().toggleBlockquote().run())}
        {tool("Link", "Link", state?.link, setLink)}
        {tool("Image from the media library", "Image", false, () => setPicking(true))}
        {state?.image ? (
          <>
            {tool("Image on the left", "⇤", state.imageClass === "image-left", () =>
              chain().updateAttributes("image", { class: "image-left" }).run(),
            )}
            {tool("Image centred", "↔", state.imageClass === "image-center", () =>
              chain().updateAttributes("image", { class: "image-center" }).run(),
            )}
            {tool("Image on the right", "⇥", state.imageClass === "image-right", () =>
              chain().updateAttributes("image", { class: "image-right" }).run(),
            )}
          </>
        ) : null}
      </div>
      {picking ? (
        <InsertImage
          onClose={() => setPicking(false)}
          onInsert={(m) =>
            chain()
              .setImage({ src: m.assetUrl, alt: m.title || "" })
              .run()
          }
        />
      ) : null}
      <EditorContent editor={editor} />
    </div>
  );
}
