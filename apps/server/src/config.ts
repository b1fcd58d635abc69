import path from "node:path";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite under dataDir. */
  databaseUrl?: string;
  logLevel: string;
  /** The public origin, e.g. https://shop.example.com; defaults to http://localhost:PORT. */
  publicUrl: string;
  demoOwnerEmail: string;
  demoOwnerPassword: string;
  /** Seed the demo site into an empty database. */
  seedDemo: boolean;
  smtpUrl?: string;
  stripeSecretKey?: string;
  /** Bearer token that opens GET /metrics; unset, metrics are off. */
  metricsToken?: string;
}

export const DEFAULT_DEMO_OWNER_EMAIL = "owner@atelier.test";
export const DEFAULT_DEMO_OWNER_PASSWORD = "atelier-demo";

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number.parseInt(env.PORT ?? "3000", 10);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    dataDir: path.resolve(env.DATA_DIR ?? "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: env.LOG_LEVEL ?? "info",
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    demoOwnerEmail: env.DEMO_OWNER_EMAIL ?? DEFAULT_DEMO_OWNER_EMAIL,
    demoOwnerPassword: env.DEMO_OWNER_PASSWORD ?? DEFAULT_DEMO_OWNER_PASSWORD,
    seedDemo: env.SEED_DEMO !== "false",
    smtpUrl: env.SMTP_URL || undefined,
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
  };
}
