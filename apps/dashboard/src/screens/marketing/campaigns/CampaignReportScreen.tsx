/**
 * Marketing › Email campaigns › a campaign's report: how many it went to, were sent, refused and
 * unsubscribed, opened and clicked (when counted), the orders and revenue within 7 days of a click,
 * and each link with its clicks. It refreshes itself while the campaign is sending.
 */
import { formatMoney } from "@atelier/commerce";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams } from "react-router";
import { get, post } from "../../../api.js";
import { Card } from "../../../components/Card.js";
import { Can } from "../../../components/permissions.js";
import { ErrorNotice, ListTable, Loaded, PageHead, formatDate, useSiteId } from "../../../components/ui.js";
import { useStoreCurrency } from "../../store/useStore.js";
import { type Campaign, type CampaignReport, STATUS_LABEL, campaignUrl, campaignsPath } from "./model.js";

export function CampaignReportScreen() {
  const siteId = useSiteId();
  const { campaignId = "" } = useParams();
  const queryClient = useQueryClient();
  const currency = useStoreCurrency();
  const campaign = useQuery({
    queryKey: ["campaign", siteId, campaignId],
    queryFn: () => get<{ campaign: Campaign }>(campaignUrl(siteId, campaignId)).then((r) => r.campaign),
    refetchInterval: (q) => (q.state.data?.status === "sending" ? 3000 : false),
  });
  const sending = campaign.data?.status === "sending";
  const report = useQuery({
    queryKey: ["campaign-report", siteId, campaignId],
    queryFn: () => get<CampaignReport>(`${campaignUrl(siteId, campaignId)}/report`),
    refetchInterval: sending ? 3000 : false,
  });
  // The figures once more when the campaign finishes (or is cancelled), for its last copies.
  const { refetch } = report;
  const status = campaign.data?.status;
  useEffect(() => {
    if (status) void refetch();
  }, [status, refetch]);
  const cancel = useMutation({
    mutationFn: () => post<{ campaign: Campaign }>(`${campaignUrl(siteId, campaignId)}/cancel`),
    onSuccess: (r) => queryClient.setQueryData(["campaign", siteId, campaignId], r.campaign),
  });
  const c = campaign.data;
  const badge = c ? STATUS_LABEL[c.status] : undefined;
  return (
    <>
      <PageHead
        title={c ? c.subject || "(no subject)" : "Campaign report"}
        sub={
          badge ? (
            <>
              <span className={`badge ${badge.badge}`}>{badge.label}</span>{" "}
              {c?.startedOn ? `Started ${formatDate(c.startedOn, true)}` : ""}
              {c?.finishedOn && c.status === "sent" ? ` · finished ${formatDate(c.finishedOn, true)}` : ""}
            </>
          ) : undefined
        }
        back={{ to: campaignsPath(siteId), label: "All campaigns" }}
        actions={
          sending ? (
            <Can permission="marketing.write">
              <button
                type="button"
                className="btn danger"
                onClick={() => cancel.mutate()}
                disabled={cancel.isPending}
              >
                {cancel.isPending ? "Cancelling…" : "Cancel sending"}
              </button>
            </Can>
          ) : null
        }
      />
      <ErrorNotice error={campaign.error ?? cancel.error} />
      <Loaded query={report}>
        {(r) => (
          <>
            <section className="analytics-figures campaign-figures" aria-label="Results">
              <Figure label="Recipients" value={r.recipients} />
              <Figure label="Sent" value={r.sent} />
              <Figure label="Refused" value={r.refused} />
              <Figure label="Unsubscribed" value={r.unsubscribed} />
              <Figure label="Opened" value={r.opened} of={r.sent} counted={c?.tracking} />
              <Figure label="Clicked" value={r.clicked} of={r.sent} counted={c?.tracking} />
              <Figure label="Orders" value={r.orders} />
              <div className="analytics-figure">
                <span className="muted small">Revenue</span>
                <strong>{formatMoney(r.revenueCents, currency)}</strong>
              </div>
            </section>
            <p className="muted small">
              Orders and revenue count what recipients ordered within 7 days of clicking a link.
            </p>
            <Card title="Links" as="section">
              <ListTable
                columns={[{ label: "Link" }, { label: "Clicks", className: "num" }]}
                rows={r.links}
                empty={
                  c?.tracking === false
                    ? "Clicks were not counted for this campaign."
                    : "No links in this campaign, or no clicks yet."
                }
                row={(l) => (
                  <tr key={l.url}>
                    <td className="campaign-link-url">{l.url}</td>
                    <td className="num">{l.clicks.toLocaleString("en-US")}</td>
                  </tr>
                )}
              />
            </Card>
          </>
        )}
      </Loaded>
    </>
  );
}

function Figure({
  label,
  value,
  of,
  counted = true,
}: {
  label: string;
  value: number;
  of?: number;
  counted?: boolean;
}) {
  return (
    <div className="analytics-figure">
      <span className="muted small">{label}</span>
      <strong>{counted ? value.toLocaleString("en-US") : "—"}</strong>
      {counted && of ? <span className="muted small">{Math.round((value / of) * 100)}% of sent</span> : null}
      {counted ? null : <span className="muted small">Not counted</span>}
    </div>
  );
}
