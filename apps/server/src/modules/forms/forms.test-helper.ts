/**
 * The forms tests' shared setup: the seeded demo on a clock the tests can move, its contact and
 * newsletter forms, visitors with their own addresses, and the submission calls they make.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import {
  type Browser,
  type TestApp,
  createTestApp,
  signedInOwner,
  visitorFrom,
} from "../../../test/harness.js";
import * as s from "../../db/schema.js";

export const EMAIL_MSG = "Email is not valid. Email addresses should follow the format user@domain.com.";
export const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };

export let t: TestApp;
export let websiteId: string;
export let contactId: string;
export let newsletterId: string;
let ipCounter = 0;

/** Starts the file's app before its tests and closes it after them. */
export function useFormsApp(): void {
  beforeAll(async () => {
    t = await createTestApp({ seed: true, clock });
    const db = t.database.db;
    const [site] = await db.select().from(s.websites);
    websiteId = site!.id;
    const forms = await db.select().from(s.forms).where(eq(s.forms.websiteId, websiteId));
    contactId = forms.find((f) => f.name === "Contact")!.id;
    newsletterId = forms.find((f) => f.name === "Newsletter")!.id;
  });
  afterAll(() => t.close());
}

/** A visitor from their own address, so each test has its own rate-limit counters. */
export async function visitor(): Promise<Browser & { ip: string }> {
  const ip = `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  return Object.assign(await visitorFrom(t, ip, "localhost", "/contact"), { ip });
}

/** The demo's owner, signed in. */
export const owner = (): Promise<Browser> => signedInOwner(t);

export async function key(b: Browser): Promise<string> {
  const res = await b.request({ method: "POST", url: "/api/form/FormSubmissionKey" });
  expect(res.statusCode).toBe(200);
  return res.json().key;
}

export const goodContact = {
  name: ["Ada", "Lovelace"],
  email: "ada@example.com",
  phone: ["212", "555", "0100"],
  subject: "Wholesale",
  message: "Do you sell to shops?",
};

export function save(b: Browser, payload: Record<string, unknown>) {
  return b.request({ method: "POST", url: "/api/form/SaveFormSubmission", payload });
}

/** Asks the server to check `answers` against the form's rules, as the form block does before sending. */
export function validate(b: Browser, formId: string, answers: Record<string, unknown>) {
  return b.request({ method: "POST", url: `/api/rest/forms/validate/${formId}`, payload: answers });
}

/** Sends answers with a fresh submission key, as the form block does: the good contact answers to the contact form unless told. */
export async function submit(
  b: Browser,
  {
    formId = contactId,
    answers = goodContact,
    ...rest
  }: { formId?: string; answers?: unknown; captchaKey?: string } = {},
) {
  return save(b, { key: await key(b), formId, form: JSON.stringify(answers), ...rest });
}

export async function submissions(formId = contactId) {
  return t.database.db.select().from(s.formSubmissions).where(eq(s.formSubmissions.formId, formId));
}
