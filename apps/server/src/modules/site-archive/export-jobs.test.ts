import { expect, it } from "vitest";
import { owner, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { runDueJobs } from "../jobs/service.js";
import { importFile } from "./archive.test-helper.js";

useDemoApp();

it("prepares an archive in the background, reports progress, then offers a download that imports", async () => {
  const started = await owner.request({ method: "POST", url: `/api/owner/sites/${siteId}/exports` });
  expect(started.statusCode, started.body).toBe(202);
  const { id, state } = started.json().export;
  expect(state).toBe("queued");
  const url = `/api/owner/sites/${siteId}/exports/${id}`;
  const queued = (await owner.request({ url })).json().export;
  expect(queued.state).toBe("queued");
  expect(queued.downloadUrl).toBeUndefined();
  expect((await owner.request({ url: `${url}/download` })).statusCode).toBe(404);

  expect(await runDueJobs(t.app.deps, "test")).toEqual({ ran: 1, failed: 0 });
  const done = (await owner.request({ url })).json().export;
  expect(done).toMatchObject({ state: "done", downloadUrl: `${url}/download` });
  expect(done.rows).toBeGreaterThan(100);
  expect(done.mediaFiles).toBeGreaterThan(10);

  const file = await owner.request({ url: done.downloadUrl });
  expect(file.statusCode).toBe(200);
  expect(file.headers["content-type"]).toBe("application/zip");
  expect(Number(file.headers["content-length"])).toBe(done.bytes);
  const imported = await importFile(owner, file.rawPayload);
  expect(imported.statusCode, imported.body).toBe(201);
});

it("keeps one site's exports from another site's path", async () => {
  const other = await owner.request({
    method: "POST",
    url: "/api/owner/sites",
    payload: { title: "Other", theme: "classic" },
  });
  const otherId = other.json().site.id;
  const started = (await owner.request({ method: "POST", url: `/api/owner/sites/${siteId}/exports` })).json()
    .export;
  const res = await owner.request({ url: `/api/owner/sites/${otherId}/exports/${started.id}` });
  expect(res.statusCode).toBe(404);
  const stranger = await t.app.inject({
    url: `/api/owner/sites/${siteId}/exports/${started.id}`,
    headers: { host: "localhost" },
  });
  expect(stranger.statusCode).toBe(401);
});
