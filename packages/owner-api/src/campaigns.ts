/** The shapes of email campaigns in the owner API (`…/campaigns`, `…/segments`), as the server stores and answers them. */

export type CampaignStatus = "draft" | "scheduled" | "sending" | "sent" | "cancelled";

export type AudienceKind = "subscribers" | "customers" | "site_users" | "segment";

/** Who a campaign goes to; `segmentId` with the kind `segment`. */
export interface Audience {
  kind: AudienceKind;
  segmentId?: string;
}

/** A block of a campaign's body. */
export type CampaignBlock =
  | { type: "text"; html: string }
  | { type: "image"; mediaId: string; alt: string; url?: string }
  | { type: "button"; text: string; url: string }
  | { type: "product"; productId: string }
  | { type: "products"; productIds: string[] }
  | { type: "divider" }
  | { type: "spacer" }
  | { type: "social" };

/** The rule of a segment of the mailing list. */
export type SegmentRule =
  | { kind: "bought_product"; productId: string }
  | { kind: "bought_category"; category: string }
  | { kind: "spent_at_least"; amountCents: number }
  | { kind: "ordered_within_days"; days: number }
  | { kind: "signed_up_through_form"; formId: string };
