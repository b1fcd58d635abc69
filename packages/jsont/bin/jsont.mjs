#!/usr/bin/env node
// Launcher for the JSON-T command line tool: runs the TypeScript source through tsx.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/jsont.ts");
