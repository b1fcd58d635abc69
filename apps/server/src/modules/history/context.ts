/**
 * Who is making the changes of a request, for the versions and trash entries its services write.
 * Every request runs in its own context (a `preValidation` hook); the owner's sign-in check or an API
 * key's check names the actor, and the clock is the app's (tests move it). Outside a request
 * (jobs, the seed, the CLI) the actor is the system and the clock the system's.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { type Clock, systemClock } from "../../lib/clock.js";
import { type Actor, SYSTEM } from "../events/service.js";

interface ChangeContext {
  actor: Actor;
  clock: Clock;
  /** How long what is deleted stays in the trash (the operator's TRASH_DAYS). */
  trashDays: number;
}

/** The trash's days when no request names them (TRASH_DAYS' default). */
export const TRASH_DAYS = 30;

const store = new AsyncLocalStorage<ChangeContext>();

/** preValidation hook (after the body is read, so the context holds through the handler): the request's changes are the system's until an actor is named. */
export function changeContextHook(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  store.run(
    { actor: SYSTEM, clock: request.server.deps.clock, trashDays: request.server.deps.config.trashDays },
    done,
  );
}

/** Names who makes the changes of the current request (a signed-in account, an API key). */
export function setActor(actor: Actor): void {
  const ctx = store.getStore();
  if (ctx) ctx.actor = actor;
}

export function currentActor(): Actor {
  return store.getStore()?.actor ?? SYSTEM;
}

export function trashDays(): number {
  return store.getStore()?.trashDays ?? TRASH_DAYS;
}

export function changeClock(): Clock {
  return store.getStore()?.clock ?? systemClock;
}

/** Runs `run` with this actor and clock (jobs, tests and the CLI, outside a request). */
export function withChangeContext<T>(actor: Actor, clock: Clock, run: () => Promise<T>): Promise<T> {
  return store.run({ actor, clock, trashDays: TRASH_DAYS }, run);
}
