/** Orders as the owner API sends them, and how a status reads. */
export type { Order } from "@atelier/owner-api";

export const STATUS_BADGE: Record<string, string> = {
  paid: "accent",
  fulfilled: "ok",
  refunded: "danger",
  partially_refunded: "warn",
  cancelled: "danger",
  pending: "warn",
};
export const statusText = (s: string) => s.replace(/_/g, " ");
