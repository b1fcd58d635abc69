/** What the operations screens share: a plain notice where the server lacks an owner call. */
import { ApiError } from "../../api.js";
import { ErrorNotice, Notice } from "../../components/ui.js";

/** A screen whose owner call the server does not have (404 on the route) says so plainly. */
export function Unavailable({ what, error }: { what: string; error: unknown }) {
  if (error instanceof ApiError && error.status === 404 && /No such route/.test(error.message)) {
    return <Notice kind="warn">{what} are not available on this server yet.</Notice>;
  }
  return <ErrorNotice error={error} />;
}
