// Which paths the sandbox hides for the `read(...)` deny rules, found on a real folder: literal paths,
// globs expanded by a walk, folders a glob wholly covers, links, and the walk's limits.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRule } from "../../src/permissions/rules.js";
import { hiddenPathsFor, literalBase } from "../../src/permissions/sandbox-hidden.js";

let ws: string;
let outside: string;
beforeEach(() => {
	ws = realpathSync(mkdtempSync(join(tmpdir(), "rudder-hidden-")));
	for (const file of [
		".env",
		"secrets/a.txt",
		"secrets/deep/b.txt",
		"src/certs/server.pem",
		"src/app.ts",
		"node_modules/x/y.pem",
		"api/.env",
	]) {
		mkdirSync(dirname(join(ws, file)), { recursive: true });
		writeFileSync(join(ws, file), "x");
	}
	symlinkSync(join(ws, "src", "app.ts"), join(ws, "src", "alias.pem"));
	outside = realpathSync(mkdtempSync(join(tmpdir(), "rudder-hidden-out-")));
	writeFileSync(join(outside, "id_rsa"), "x");
	symlinkSync(outside, join(ws, "keys"));
});
afterEach(() => {
	rmSync(ws, { recursive: true, force: true });
	rmSync(outside, { recursive: true, force: true });
});

const hidden = (rules: string[], limit?: number) =>
	hiddenPathsFor(
		rules.map((r) => parseRule(r, "test")),
		ws,
		limit,
	);
const rel = (paths: string[]) => paths.map((p) => p.slice(ws.length + 1));

describe("hiddenPathsFor", () => {
	it("hides a literal path as named, and nothing for a path that does not exist", () => {
		expect(rel(hidden(["read(.env)", "read(missing.txt)"]).paths)).toEqual([".env"]);
	});

	it("hides a folder a glob wholly covers as one path", () => {
		expect(rel(hidden(["read(secrets/**)"]).paths)).toEqual(["secrets"]);
	});

	it("expands a glob by walking, skipping node_modules and .git; a link whose name matches hides what it leads to", () => {
		expect(rel(hidden(["read(**/*.pem)"]).paths)).toEqual(["src/app.ts", "src/certs/server.pem"]);
		expect(rel(hidden(["read(**/.env)"]).paths)).toEqual([".env", "api/.env"]);
		expect(rel(hidden(["read(node_modules/**/*.pem)"]).paths)).toEqual(["node_modules/x/y.pem"]);
	});

	it("a rule on a linked folder hides where it leads", () => {
		expect(hidden(["read(keys/**)"]).paths).toEqual([outside]);
		expect(hidden(["read(keys/id_*)"]).paths).toEqual([join(outside, "id_rsa")]);
		expect(hidden(["read(keys)"]).paths).toEqual([outside]);
	});

	it("ignores rules that do not hold for read, and says when the walk limit cut a glob short", () => {
		expect(hidden(["edit(.env)", "bash(cat *)", "grep(secrets/**)"]).paths).toEqual([]);
		expect(hidden(["read(**/*.pem)"], 3)).toMatchObject({ cut: true });
	});

	it("finds a glob's literal folder, absolute or relative", () => {
		expect(literalBase("secrets/**", "/w")).toEqual({ base: "/w/secrets", isGlob: true });
		expect(literalBase("./a/b*.txt", "/w")).toEqual({ base: "/w/a", isGlob: true });
		expect(literalBase("/etc/ssl/*.key", "/w")).toEqual({ base: "/etc/ssl", isGlob: true });
		expect(literalBase(".env", "/w")).toEqual({ base: "/w/.env", isGlob: false });
	});
});
