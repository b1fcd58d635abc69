/**
 * Marketing › Email campaigns: every campaign with its subject, status, audience size and when it
 * went out; New campaign. A draft or scheduled campaign opens to compose, any other to its report.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { get } from "../../../api.js";
import { Can } from "../../../components/permissions.js";
import { LoadedTable, PageHead, formatDate, useSiteId, useSiteQuery } from "../../../components/ui.js";
import {
  type Campaign,
  type CampaignReport,
  STATUS_LABEL,
  campaignUrl,
  campaignsPath,
  campaignsUrl,
} from "./model.js";
import { SubscriberImport } from "./SubscriberImport.js";

export function Campaigns() {
  const siteId = useSiteId();
  const list = useSiteQuery("campaigns", campaignsUrl, (r: { campaigns: Campaign[] }) => r.campaigns);
  return (
    <>
      <PageHead
        title="Email campaigns"
        sub="Newsletters in your site's design, sent to the people who joined your mailing list."
        actions={
          <Can permission="marketing.write">
            <SubscriberImport />
            <Link className="btn primary" to={campaignsPath(siteId, "new")}>
              New campaign
            </Link>
          </Can>
        }
      />
      <LoadedTable
        query={list}
        rows={(campaigns) => campaigns}
        columns={[
          { label: "Subject" },
          { label: "Status" },
          { label: "Recipients", className: "hide-phone" },
          { label: "Sent", className: "hide-phone" },
        ]}
        empty="No campaigns yet. Write your first one with New campaign."
        row={(c) => <CampaignRow key={c.id} campaign={c} />}
      />
    </>
  );
}

function CampaignRow({ campaign: c }: { campaign: Campaign }) {
  const siteId = useSiteId();
  const status = STATUS_LABEL[c.status];
  const editable = c.status === "draft" || c.status === "scheduled";
  const to = campaignsPath(siteId, editable ? c.id : `${c.id}/report`);
  const audience =
    c.audience.kind === "subscribers"
      ? "Mailing list"
      : c.audience.kind === "customers"
        ? "Customers"
        : c.audience.kind === "site_users"
          ? "Site users"
          : "Segment";
  return (
    <tr>
      <td>
        <Link to={to}>{c.subject || "(no subject)"}</Link>
      </td>
      <td>
        <span className={`badge ${status.badge}`}>{status.label}</span>
        {c.status === "scheduled" && c.scheduledOn ? (
          <span className="muted small"> for {formatDate(c.scheduledOn, true)}</span>
        ) : null}
      </td>
      <td className="hide-phone">{c.startedOn ? <Recipients id={c.id} /> : audience}</td>
      <td className="hide-phone">{c.startedOn ? formatDate(c.startedOn, true) : "—"}</td>
    </tr>
  );
}

/** How many a campaign that started went to, from its report. */
function Recipients({ id }: { id: string }) {
  const siteId = useSiteId();
  const report = useQuery({
    queryKey: ["campaign-report", siteId, id],
    queryFn: () => get<CampaignReport>(`${campaignUrl(siteId, id)}/report`),
  });
  return <>{report.data ? report.data.recipients.toLocaleString("en-US") : "…"}</>;
}
