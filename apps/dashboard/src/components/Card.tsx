/** A card of a screen: its heading, then what it holds (fields, a list, a note). */
import { type ReactNode, useId } from "react";

export function Card({
  title,
  as: Frame = "div",
  children,
}: {
  title: ReactNode;
  /** "section" where the card is a part of the page of its own (a region named by its heading). */
  as?: "div" | "section";
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Frame className="card" aria-labelledby={Frame === "section" ? headingId : undefined}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </Frame>
  );
}
