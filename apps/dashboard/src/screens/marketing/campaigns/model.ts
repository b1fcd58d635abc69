/**
 * Email campaigns as the owner API answers them (apps/server/src/modules/campaigns/routes.ts), the
 * addresses of its calls, and the queries the campaign screens share.
 */
import { useQuery } from "@tanstack/react-query";
import { get, withQuery } from "../../../api.js";
import { useSiteId } from "../../../components/ui.js";

import type { Audience, AudienceKind, CampaignBlock, CampaignStatus, SegmentRule } from "@atelier/owner-api";

export type { Audience, AudienceKind, CampaignBlock, CampaignStatus, SegmentRule };
export type BlockType = CampaignBlock["type"];

/** What the owner writes: the body of POST and PATCH. */
export interface CampaignFields {
  subject: string;
  previewText: string;
  fromName: string;
  replyTo: string | null;
  audience: Audience;
  blocks: CampaignBlock[];
  tracking: boolean;
}

export interface Campaign extends CampaignFields {
  id: string;
  status: CampaignStatus;
  scheduledOn: number | null;
  startedOn: number | null;
  finishedOn: number | null;
  createdOn: number;
  updatedOn: number;
}

export interface CampaignReport {
  recipients: number;
  sent: number;
  refused: number;
  unsubscribed: number;
  opened: number;
  clicked: number;
  orders: number;
  revenueCents: number;
  links: { url: string; clicks: number }[];
}

export interface Segment {
  id: string;
  name: string;
  rule: SegmentRule;
  count: number;
}

export const STATUS_LABEL: Record<CampaignStatus, { label: string; badge: string }> = {
  draft: { label: "Draft", badge: "" },
  scheduled: { label: "Scheduled", badge: "accent" },
  sending: { label: "Sending", badge: "warn" },
  sent: { label: "Sent", badge: "ok" },
  cancelled: { label: "Cancelled", badge: "danger" },
};

export const AUDIENCE_LABEL: Record<AudienceKind, string> = {
  subscribers: "Everyone on the mailing list",
  customers: "Customers (subscribers who ordered)",
  site_users: "Site users (subscribers with an account)",
  segment: "A segment",
};

export const campaignsUrl = (siteId: string) => `/api/owner/sites/${siteId}/campaigns`;
export const campaignUrl = (siteId: string, id: string) => `${campaignsUrl(siteId)}/${id}`;
export const segmentsUrl = (siteId: string) => `/api/owner/sites/${siteId}/segments`;
/** The dashboard's path of the campaigns list, or of one campaign's screen under it. */
export const campaignsPath = (siteId: string, rest = "") =>
  `/sites/${siteId}/marketing/campaigns${rest ? `/${rest}` : ""}`;

export const BLANK_CAMPAIGN: CampaignFields = {
  subject: "",
  previewText: "",
  fromName: "",
  replyTo: null,
  audience: { kind: "subscribers" },
  blocks: [{ type: "text", html: "" }],
  tracking: true,
};

/** A campaign's own fields (what PATCH takes), from what the API answered. */
export function fieldsOf(c: Campaign): CampaignFields {
  return {
    subject: c.subject,
    previewText: c.previewText,
    fromName: c.fromName,
    replyTo: c.replyTo,
    audience: c.audience,
    blocks: c.blocks,
    tracking: c.tracking,
  };
}

export function useSegments() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["segments", siteId],
    queryFn: () => get<{ segments: Segment[] }>(segmentsUrl(siteId)).then((r) => r.segments),
  });
}

/** How many people who agreed the audience reaches now (none asked for a segment not chosen yet). */
export function useAudienceCount(audience: Audience) {
  const siteId = useSiteId();
  const ready = audience.kind !== "segment" || Boolean(audience.segmentId);
  return useQuery({
    queryKey: ["audience-count", siteId, audience.kind, audience.segmentId ?? ""],
    queryFn: () =>
      get<{ count: number }>(
        withQuery(`/api/owner/sites/${siteId}/audiences/count`, {
          audience: audience.kind,
          segmentId: audience.kind === "segment" ? audience.segmentId : undefined,
        }),
      ).then((r) => r.count),
    enabled: ready,
  });
}

/** "1 person", "1,204 people". */
export function people(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "person" : "people"}`;
}
