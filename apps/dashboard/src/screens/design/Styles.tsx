/** Design → Styles: palette, fonts, sizes, spacing and buttons, previewed live in the site frame. */
import { STYLE_RANGES } from "@atelier/owner-api";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { ApiError } from "../../api.js";
import { Card } from "../../components/Card.js";
import { TEXT_CONTRAST_PAIRS } from "@atelier/owner-api";
import { ColorField, SaveBar } from "../../components/form/index.js";
import { ErrorNotice, Loading, Notice, useSiteId } from "../../components/ui.js";
import { ContrastCheck, FontSelect, OptionCards, RangeField } from "./controls.js";
import {
  type ColorKey,
  RESET_STYLES,
  type Styles as StyleSet,
  useDesign,
  useFontFaces,
  useSaveDesign,
} from "./design-api.js";
import { errorsByPath } from "./field-errors.js";
import { fontStack, showInDocument } from "./preview-css.js";
import { usePreviewCss } from "./use-preview-css.js";
import { PreviewFrame } from "./PreviewFrame.js";
import { PreviewSplit } from "./PreviewSplit.js";
import { useDesignKeys, useLeaveGuard, useStyleHistory } from "./use-style-history.js";
import "./design.css";

const COLORS: { key: ColorKey; label: string }[] = [
  { key: "background", label: "Background" },
  { key: "text", label: "Text" },
  { key: "accent", label: "Accent" },
  { key: "accentText", label: "Accent text" },
  { key: "muted", label: "Muted text" },
  { key: "border", label: "Borders" },
];

const FONTS: { key: keyof StyleSet["fonts"]; label: string }[] = [
  { key: "heading", label: "Heading font" },
  { key: "body", label: "Body font" },
];

/** The sliders' bounds, by the style they set. */
const RANGES = {
  fontSizeBase: { label: "Base font size", unit: "px", ...STYLE_RANGES.fontSizeBase },
  headingScale: { label: "Heading scale", ...STYLE_RANGES.headingScale },
  contentWidth: { label: "Content width", unit: "px", ...STYLE_RANGES.contentWidth },
} as const;
type RangeKey = keyof typeof RANGES;
type ChoiceKey = "spacing" | "buttonShape" | "buttonStyle";

export function Styles() {
  const siteId = useSiteId();
  const design = useDesign();
  const save = useSaveDesign();
  const h = useStyleHistory(design.data?.styles);
  const [saved, setSaved] = useState(false);
  const fonts = design.data?.fonts ?? [];
  const styles = h.styles;
  const faces = useFontFaces().data ?? "";
  // The font list shows each family in its face; the frame gets the faces before the styles.
  useEffect(() => showInDocument(window, "font-faces", faces), [faces]);
  const preview = usePreviewCss(siteId, styles);
  const css = useMemo(() => ({ styles: preview ?? "" }), [preview]);
  const errors = errorsByPath(save.error instanceof ApiError ? save.error.fields : undefined);

  const doSave = () => {
    if (!styles || !h.dirty || save.isPending) return;
    setSaved(false);
    save.mutate(
      { styles },
      {
        // The server's form of what was typed (#abc is #aabbcc) becomes what the screen shows.
        onSuccess: (d) => {
          h.replace(d.styles);
          setSaved(true);
        },
      },
    );
  };
  useDesignKeys({ undo: h.undo, redo: h.redo });
  useLeaveGuard(h.dirty);

  if (design.isLoading) return <Loading />;
  if (!design.data || !styles) return <ErrorNotice error={design.error} />;
  const set = <K extends keyof StyleSet>(key: K, value: StyleSet[K]) => {
    setSaved(false);
    if (save.error) save.reset();
    h.change((s) => ({ ...s, [key]: value }));
  };
  const reset = () => {
    if (
      !window.confirm(
        "Put every colour, font and size back to the theme's defaults? Your other content stays.",
      )
    )
      return;
    setSaved(false);
    save.mutate({ styles: RESET_STYLES }, { onSuccess: (d) => h.replace(d.styles) });
  };
  const family = (id: string) => fontStack(id, fonts);
  const range = (key: RangeKey) => (
    <RangeField {...RANGES[key]} value={styles[key]} error={errors[key]} onChange={(v) => set(key, v)} />
  );
  /** One radio group of cards, one card a value, each labelled with its value and a preview. */
  const choice = <K extends ChoiceKey>(
    key: K,
    legend: string,
    values: readonly StyleSet[K][],
    preview: (value: StyleSet[K], index: number) => ReactNode,
  ) => (
    <OptionCards
      legend={legend}
      value={styles[key]}
      error={errors[key]}
      onChange={(v) => set(key, v)}
      options={values.map((v, i) => ({
        value: v,
        label: v[0]!.toUpperCase() + v.slice(1),
        preview: preview(v, i),
      }))}
    />
  );

  return (
    <PreviewSplit
      title="Styles"
      sub="Colours, fonts and spacing of your whole site. Changes show in the preview before you save."
      label="Site styles"
      onSubmit={doSave}
      preview={
        <PreviewFrame
          siteId={siteId}
          css={css}
          replaces={preview === undefined ? [] : ["style#site-styles"]}
        />
      }
    >
      {save.error && !(save.error instanceof ApiError && save.error.fields) ? (
        <ErrorNotice error={save.error} />
      ) : null}
      {save.error instanceof ApiError && save.error.fields ? (
        <Notice kind="error">Nothing was saved: correct the fields marked in red.</Notice>
      ) : null}

      <Card title="Colours" as="section">
        <div className="grid-2">
          {COLORS.map((c) => (
            <ColorField
              key={c.key}
              label={c.label}
              value={styles.colors[c.key]}
              error={errors[`colors.${c.key}`]}
              onChange={(v) => set("colors", { ...styles.colors, [c.key]: v })}
            />
          ))}
        </div>
        {TEXT_CONTRAST_PAIRS.map((p) => (
          <ContrastCheck key={p.fg} label={p.label} fg={styles.colors[p.fg]} bg={styles.colors[p.bg]} />
        ))}
      </Card>

      <Card title="Fonts" as="section">
        {FONTS.map((f) => (
          <FontSelect
            key={f.key}
            label={f.label}
            error={errors[`fonts.${f.key}`]}
            value={styles.fonts[f.key]}
            fonts={fonts}
            family={family}
            onChange={(v) => set("fonts", { ...styles.fonts, [f.key]: v })}
          />
        ))}
        {range("fontSizeBase")}
        {range("headingScale")}
      </Card>

      <Card title="Layout" as="section">
        {range("contentWidth")}
        {choice("spacing", "Spacing", ["compact", "comfortable", "spacious"], (_, i) => (
          <span className="spacing-sample" style={{ gap: 2 + i * 4 }}>
            <i />
            <i />
            <i />
          </span>
        ))}
      </Card>

      <Card title="Buttons" as="section">
        {choice("buttonShape", "Button shape", ["square", "rounded", "pill"], (v) => (
          <ButtonSample styles={{ ...styles, buttonShape: v }} />
        ))}
        {choice("buttonStyle", "Button style", ["solid", "outline"], (v) => (
          <ButtonSample styles={{ ...styles, buttonStyle: v }} />
        ))}
      </Card>

      <SaveBar
        dirty={h.dirty}
        pending={save.isPending}
        saved={saved && "Styles saved."}
        saveLabel="Save styles"
      >
        {[
          { label: "Undo", run: h.undo, can: h.canUndo, keys: "Control+Z" },
          { label: "Redo", run: h.redo, can: h.canRedo, keys: "Control+Shift+Z" },
        ].map((b) => (
          <button
            key={b.label}
            type="button"
            className="btn"
            onClick={b.run}
            disabled={!b.can}
            aria-keyshortcuts={b.keys}
          >
            {b.label}
          </button>
        ))}
        <button type="button" className="btn" onClick={reset} disabled={save.isPending}>
          Reset to theme defaults
        </button>
      </SaveBar>
    </PreviewSplit>
  );
}

function ButtonSample({ styles }: { styles: StyleSet }) {
  const radius = { square: 0, rounded: 6, pill: 999 }[styles.buttonShape];
  const solid = styles.buttonStyle === "solid";
  return (
    <span
      className="button-sample"
      style={{
        borderRadius: radius,
        background: solid ? styles.colors.accent : "transparent",
        color: solid ? styles.colors.accentText : styles.colors.accent,
        borderColor: styles.colors.accent,
      }}
    >
      Shop now
    </span>
  );
}
