/**
 * The pay-in-instalments line (SPEC §2, §4, §9): in range (above 100 and at most 150000 minor
 * units) it shows 4 interest-free payments of a quarter of the price with its pill and an info
 * button; out of range it says the order minimum or maximum. The info button opens the
 * information modal of the visitor's country, shipped with the product.
 */
import {
  INSTALMENT_COUNT,
  INSTALMENT_MAX_INCLUSIVE,
  INSTALMENT_MIN_EXCLUSIVE,
  formatMoney,
  instalmentAmount,
  instalmentLocale,
  instalmentRange,
} from "@atelier/commerce";
import { useState } from "react";
import { Modal } from "../../lib/modal.js";
import { instalmentContent, instalmentLine } from "./content.js";
import "./instalments.css";

interface InstalmentsProps {
  /** The price in minor units. */
  priceCents: number;
  currency?: string;
  /** Visitor locale ("en-US", "fr-CA"); the browser's language when absent. */
  locale?: string;
}

export function Instalments({ priceCents, currency = "USD", locale }: InstalmentsProps) {
  const [open, setOpen] = useState(false);
  const where = instalmentLocale(locale ?? (typeof navigator !== "undefined" ? navigator.language : "en-US"));
  const text = instalmentContent(where.country, where.language);
  const range = instalmentRange(priceCents);
  const money = (minor: number) => formatMoney(minor, currency);
  const line = instalmentLine(range, text, {
    count: INSTALMENT_COUNT,
    amount: money(range === "in-range" ? instalmentAmount(priceCents) : 0),
    min: money(INSTALMENT_MIN_EXCLUSIVE),
    max: money(INSTALMENT_MAX_INCLUSIVE),
  });

  return (
    <div className={`instalments instalments--${range}`} data-instalment-range={range}>
      <span className="instalments-line">{line}</span>
      {range === "in-range" ? <span className="instalments-pill">{text.pill}</span> : null}
      <button
        type="button"
        className="instalments-info"
        aria-label={text.infoLabel}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">i</span>
      </button>
      {open ? (
        <Modal
          title={text.title}
          onClose={() => setOpen(false)}
          closeLabel={text.closeLabel}
          className="instalments-modal"
        >
          <p>{text.intro}</p>
          <ol className="instalments-steps">
            {text.steps.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
          <p className="instalments-terms">{text.terms}</p>
        </Modal>
      ) : null}
    </div>
  );
}
