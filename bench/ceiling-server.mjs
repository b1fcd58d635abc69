/**
 * The runtime's ceiling for bench:pages: a minimal Node `http` server answering every request
 * with the same status, headers and (compressed) body from memory. Usage:
 * node ceiling-server.mjs <port> <body file> <headers JSON file>
 */
import { readFileSync } from "node:fs";
import http from "node:http";

const [port, bodyFile, headersFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = JSON.parse(readFileSync(headersFile, "utf8"));
http
  .createServer((req, res) => {
    req.resume();
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
