import { PASSWORD_MIN_LENGTH } from "@atelier/owner-api";
import { hash, verify } from "@node-rs/argon2";

/** The shortest password an account accepts (the dashboard states the same figure). */
export const MIN_PASSWORD_LENGTH = PASSWORD_MIN_LENGTH;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
