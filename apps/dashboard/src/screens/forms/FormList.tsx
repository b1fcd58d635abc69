/** The site's forms: name, fields, submissions, with links to edit them and see what was sent. */
import { Link } from "react-router";
import { DeletedNotice } from "../../components/history/DeletedNotice.js";
import { LoadedTable, PageHead, useForms } from "../../components/ui.js";
import { Can } from "../../components/permissions.js";

export function FormList({ siteId }: { siteId: string }) {
  const forms = useForms();
  return (
    <>
      <PageHead
        title="Forms"
        sub="Contact forms, sign-ups and surveys for the form blocks on your pages."
        actions={
          <Can permission="forms.write">
            <Link className="btn primary" to={`/sites/${siteId}/forms/new`}>
              Create form
            </Link>
          </Can>
        }
      />
      <DeletedNotice what="form" lists={[["forms", siteId]]} />
      <LoadedTable
        query={forms}
        rows={(data) => data}
        columns={[
          { label: "Form" },
          { label: "Fields", className: "num" },
          { label: "Submissions", className: "num" },
          { label: "After submitting", className: "hide-phone" },
        ]}
        empty={
          <div className="empty">
            <p>No forms yet.</p>
            <Can permission="forms.write">
              <Link className="btn primary" to={`/sites/${siteId}/forms/new`}>
                Create your first form
              </Link>
            </Can>
          </div>
        }
        row={(f) => (
          <tr key={f.id}>
            <td>
              <Link to={`/sites/${siteId}/forms/${f.id}`}>{f.name}</Link>
              {f.captchaEnabled ? <span className="badge"> Captcha</span> : null}
            </td>
            <td className="num">{f.fields.filter((x) => x.type !== "section").length}</td>
            <td className="num">
              <Link
                to={`/sites/${siteId}/ops/forms/${f.id}`}
                aria-label={`${f.submissions} submissions of ${f.name}`}
              >
                {f.submissions}
              </Link>
            </td>
            <td className="hide-phone muted small">
              {f.successRedirect
                ? `Goes to ${f.successRedirect}`
                : f.submissionMessage
                  ? `Shows “${f.submissionMessage.length > 50 ? `${f.submissionMessage.slice(0, 50)}…` : f.submissionMessage}”`
                  : "Shows a thank-you message"}
            </td>
          </tr>
        )}
      />
    </>
  );
}
