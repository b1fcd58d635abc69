/** A card of a screen: its heading, then what it holds (fields, a list, a note). */
import type { ReactNode } from "react";

export function Card({
  title,
  as: Frame = "div",
  children,
}: {
  title: ReactNode;
  /** "section" where the card is a part of the page of its own. */
  as?: "div" | "section";
  children: ReactNode;
}) {
  return (
    <Frame className="card">
      <h2>{title}</h2>
      {children}
    </Frame>
  );
}
