/**
 * `npm run cluster -- --processes 3`: the several-machines layout on one machine, for tests and
 * demos. s3rver as the bucket, one PostgreSQL database, N server processes (each with a DATA_DIR
 * of its own, so nothing but the database and the bucket is shared) and nginx in front, run
 * from a temporary prefix with the config of deploy/nginx.conf. Prints the URL; Ctrl-C stops it.
 * `--proxy caddy` puts Caddy in front instead, with deploy/Caddyfile: HTTPS on `--port` with
 * certificates on demand from Caddy's local CA (its root certificate is printed), HTTP
 * redirecting to it on a port of its own.
 *
 * Options: --processes N (3), --port P (the proxy's; 8080), --proxy nginx|caddy (nginx),
 * --database-url URL (default: a new database on postgres://postgres@127.0.0.1:5432, dropped on
 * exit unless --keep).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import S3rver from "s3rver";
import { createScratchDatabase } from "../apps/server/test/scratch-database.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface ClusterOptions {
  processes: number;
  /** The proxy's port (Caddy's HTTPS one); 0 picks a free one. */
  port?: number;
  /** What is in front of the processes: nginx (plain HTTP) or Caddy (HTTPS, on-demand TLS). */
  proxy?: "nginx" | "caddy";
  /** A database to use as it is; unset, a fresh one is made on `adminUrl` and dropped at the end. */
  databaseUrl?: string;
  adminUrl?: string;
  /** Seed the demo site (the first process to get the startup lock does it). */
  seedDemo?: boolean;
  keep?: boolean;
  logLevel?: string;
  extraEnv?: Record<string, string>;
}

export interface ServerProcess {
  index: number;
  port: number;
  child: ChildProcess;
  log: string;
}

export interface Cluster {
  url: string;
  /** The proxy's port (Caddy's HTTPS one). */
  nginxPort: number;
  /** Caddy's plain-HTTP port (it redirects to HTTPS) and its local CA's root certificate (PEM file). */
  caddy?: { httpPort: number; rootCertificate: string };
  databaseUrl: string;
  /** The environment every process runs with (database, bucket, secret). */
  env: Record<string, string>;
  processes: ServerProcess[];
  dir: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function nginxBinary(): string {
  const found = [process.env.NGINX, "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].find(
    (p) => p && existsSync(p),
  );
  if (!found) throw new Error("nginx is not installed: apt-get install -y nginx-light (or set NGINX)");
  return found;
}

export function caddyBinary(): string {
  const found = [process.env.CADDY, "/usr/bin/caddy", "/usr/local/bin/caddy"].find((p) => p && existsSync(p));
  if (!found) throw new Error("Caddy is not installed: apt-get install -y caddy (or set CADDY)");
  return found;
}

/** Resolves once something accepts connections on 127.0.0.1:port. */
async function waitForPort(port: number, child: ChildProcess, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on ${port} in time`);
}

/**
 * Runs Caddy with deploy/Caddyfile as it is, its {$...} values set for this machine: HTTPS on
 * `httpsPort` with Caddy's local CA issuing on demand (asking the first process), HTTP on
 * `httpPort`, its data under `dir`.
 */
async function startCaddy(dir: string, httpsPort: number, httpPort: number, upstreams: number[]) {
  const data = path.join(dir, "caddy");
  const child = spawn(
    caddyBinary(),
    ["run", "--config", path.join(root, "deploy/Caddyfile"), "--adapter", "caddyfile"],
    {
      env: {
        ...process.env,
        HOME: data,
        XDG_DATA_HOME: path.join(data, "data"),
        XDG_CONFIG_HOME: path.join(data, "config"),
        HTTP_PORT: String(httpPort),
        HTTPS_PORT: String(httpsPort),
        CADDY_ADMIN: "off",
        ATELIER_ASK: `127.0.0.1:${upstreams[0]}`,
        ATELIER_UPSTREAMS: upstreams.map((p) => `127.0.0.1:${p}`).join(" "),
        ATELIER_TLS_ISSUER: "internal",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const log = createWriteStream(path.join(dir, "caddy.log"));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await waitForPort(httpsPort, child, "caddy");
  const rootCertificate = path.join(data, "data/caddy/pki/authorities/local/root.crt");
  const deadline = Date.now() + 20_000;
  while (!existsSync(rootCertificate) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(rootCertificate)) throw new Error(`caddy made no local CA (see ${dir}/caddy.log)`);
  return { child, rootCertificate };
}

/** deploy/nginx.conf with these upstream servers and listen port, inside a main config for a temp prefix. */
export function nginxConfig(dir: string, listen: number, upstreams: number[]): string {
  const site = readFileSync(path.join(root, "deploy/nginx.conf"), "utf8")
    .replace(/^\s*server \d+\.\d+\.\d+\.\d+:\d+ [^\n]*\n/gm, "")
    .replace(
      /upstream atelier \{\n/,
      `upstream atelier {\n${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;\n`).join("")}`,
    )
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`)
    // Which process answered (tests count the requests that were on a killed one); not for production.
    .replace(/location \/ \{\n/, "location / {\n        add_header X-Upstream $upstream_addr always;\n");
  writeFileSync(path.join(dir, "atelier.conf"), site);
  const asRoot = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${asRoot}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/atelier.conf;
}
`;
}

async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not answer ${url} in time`);
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-cluster-"));
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((err) => console.error(err));
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const build = spawnSync(process.execPath, [path.join(root, "scripts/build-frontends.mjs")], {
      cwd: root,
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("building the front ends failed");

    const s3 = new S3rver({
      port: await freePort(),
      address: "127.0.0.1",
      silent: true,
      directory: path.join(dir, "bucket"),
      configureBuckets: [{ name: "atelier-media", configs: [] }],
    });
    const { port: s3Port } = await s3.run();
    cleanups.push(() => s3.close());

    let databaseUrl = opts.databaseUrl;
    if (!databaseUrl) {
      const db = await createScratchDatabase(
        opts.adminUrl ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
        "atelier_cluster",
      );
      databaseUrl = db.url;
      if (!opts.keep) cleanups.push(db.drop);
    }

    const caddy = opts.proxy === "caddy";
    const nginxPort = opts.port || (await freePort());
    const url = caddy ? `https://localhost:${nginxPort}` : `http://localhost:${nginxPort}`;
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      MEDIA_STORE: "s3",
      S3_BUCKET: "atelier-media",
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      LINK_SIGNING_SECRET: randomBytes(32).toString("base64url"),
      // The test card provider stands in for an outside payment service, which all processes share.
      ATELIER_TEST_PAYMENTS_DIR: path.join(dir, "test-payments"),
      PUBLIC_URL: url,
      // The proxy runs on this machine: the address it forwards is the client's.
      TRUST_PROXY: "loopback",
      SEED_DEMO: opts.seedDemo === false ? "false" : "true",
      LOG_LEVEL: opts.logLevel ?? "warn",
      AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: "1",
      ...opts.extraEnv,
    };

    const processes: ServerProcess[] = [];
    for (let index = 0; index < opts.processes; index++) {
      const port = await freePort();
      const log = path.join(dir, `server-${index + 1}.log`);
      const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "apps/server/src/main.ts")], {
        cwd: root,
        env: {
          ...process.env,
          ...env,
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: path.join(dir, `data-${index + 1}`),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const out = createWriteStream(log);
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
      processes.push({ index, port, child, log });
      cleanups.push(() => stopChild(child));
    }
    // They start together: migrations and the demo seed run under the database's startup lock.
    await Promise.all(
      processes.map((p) => waitFor(`http://127.0.0.1:${p.port}/readyz`, p.child, `server ${p.index + 1}`)),
    );

    if (caddy) {
      const httpPort = await freePort();
      const proxy = await startCaddy(
        dir,
        nginxPort,
        httpPort,
        processes.map((p) => p.port),
      );
      cleanups.push(() => stopChild(proxy.child));
      const caddyInfo = { httpPort, rootCertificate: proxy.rootCertificate };
      return { url, nginxPort, caddy: caddyInfo, databaseUrl, env, processes, dir, stop };
    }

    writeFileSync(
      path.join(dir, "nginx.conf"),
      nginxConfig(
        dir,
        nginxPort,
        processes.map((p) => p.port),
      ),
    );
    const nginx = spawn(
      nginxBinary(),
      ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "nginx-error.log")],
      {
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    cleanups.push(() => stopChild(nginx, "SIGQUIT"));
    await waitFor(`http://127.0.0.1:${nginxPort}/healthz`, nginx, "nginx", 20_000);

    return { url, nginxPort, databaseUrl, env, processes, dir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cluster = await startCluster({
    processes: Number(arg("processes") ?? 3),
    port: Number(arg("port") ?? 8080),
    proxy: arg("proxy") === "caddy" ? "caddy" : "nginx",
    databaseUrl: arg("database-url") ?? process.env.DATABASE_URL,
    keep: process.argv.includes("--keep"),
  });
  console.log(`
  Atelier cluster: ${cluster.processes.length} processes behind ${cluster.caddy ? "Caddy" : "nginx"} at ${cluster.url}/${
    cluster.caddy
      ? `\n  HTTPS from Caddy's local CA: trust ${cluster.caddy.rootCertificate}; http://localhost:${cluster.caddy.httpPort} redirects`
      : ""
  }
  Dashboard: ${cluster.url}/config   Owner login: owner@atelier.test / atelier-demo
  Processes: ${cluster.processes.map((p) => `127.0.0.1:${p.port} (pid ${p.child.pid})`).join(", ")}
  Logs and bucket: ${cluster.dir}
  Ctrl-C stops everything.`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}
