// .mcp.json with keys that name Object.prototype properties: one warning line naming the file and the
// field, and the file's other servers still start.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkMcpServerShape } from "../../../src/config/schema/mcp.js";
import { loadMcpConfig } from "../../../src/extensions/mcp/config.js";
import { PROTOTYPE_KEYS } from "./crafted-keys.js";

let root: string;
let cwd: string;
const env = () => ({ RUDDER_HOME: join(root, "home") });
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-mcpjson-"));
	cwd = join(root, "project");
	mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe(".mcp.json with prototype-property keys", () => {
	it.each(PROTOTYPE_KEYS)("%s as a server field or in env is one line; the good server still loads", (key) => {
		const file = join(cwd, ".mcp.json");
		writeFileSync(
			file,
			`{"mcpServers": {"good": {"command": "node", "args": ["s.js"]}, "bad": {"command": "x", "${key}": 1}, "env": {"command": "y", "env": {"${key}": {"a": 1}}}}}`,
		);
		const { servers, warnings } = loadMcpConfig({ cwd, env: env() });
		expect(servers.map((s) => s.name)).toEqual(["good"]);
		expect(warnings).toEqual([
			`Invalid MCP configuration in ${file}: "mcpServers.bad.${key}" is not a known field (that server was not started)`,
			`Invalid MCP configuration in ${file}: "mcpServers.env.env.${key}" must be a string (that server was not started)`,
		]);
	});

	it("a server named like a prototype property is data; an env var of that name is passed as given", () => {
		const raw = JSON.parse('{"command": "x", "env": {"__proto__": "1", "constructor": "2"}}');
		const { value, problems } = checkMcpServerShape(raw, "mcpServers.constructor");
		expect(problems).toEqual([]);
		expect(Object.entries(value.env as object)).toEqual([
			["__proto__", "1"],
			["constructor", "2"],
		]);
	});
});
