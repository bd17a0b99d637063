// The sign-in store: entries keyed by server name AND URL, the file 0600 (one readable by others is not
// used), every token handed to the redactor, and the browser command chosen from $BROWSER.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { browserCommand } from "../../../../src/extensions/mcp/auth/browser.js";
import { readChallenge } from "../../../../src/extensions/mcp/auth/challenge.js";
import { McpAuthStore } from "../../../../src/extensions/mcp/auth/token-store.js";
import { redactSecrets } from "../../../../src/safety/secrets.js";

let root: string | undefined;
afterEach(() => {
	if (root) rmSync(root, { recursive: true, force: true });
	root = undefined;
});

function store(): McpAuthStore {
	root = mkdtempSync(join(tmpdir(), "rudder-mcp-store-"));
	return new McpAuthStore({ RUDDER_HOME: root });
}

const tokens = (access: string) => ({ access_token: access, token_type: "bearer", refresh_token: `${access}-refresh` });

describe("MCP sign-in store", () => {
	it("keys entries by name and URL: the same name at another URL finds nothing", () => {
		const s = store();
		s.update("github", "https://api.github.example/mcp", (e) => ({ ...e, tokens: tokens("tok-github-0123456789") }));
		expect(s.get("github", "https://api.github.example/mcp")?.tokens?.access_token).toBe("tok-github-0123456789");
		expect(s.get("github", "https://evil.example/mcp")).toBeUndefined();
		expect(s.get("other", "https://api.github.example/mcp")).toBeUndefined();
		expect(statSync(s.file).mode & 0o777).toBe(0o600);
		expect(s.remove("github", "https://evil.example/mcp")).toBe(false);
		expect(s.remove("github", "https://api.github.example/mcp")).toBe(true);
		expect(s.get("github", "https://api.github.example/mcp")).toBeUndefined();
	});

	it("hands stored tokens to the redactor, and does not use a file others can read", () => {
		const s = store();
		s.update("a", "https://a.example/mcp", (e) => ({ ...e, tokens: tokens("tok-redact-me-987654") }));
		expect(redactSecrets("error: Bearer tok-redact-me-987654 and tok-redact-me-987654-refresh")).toBe(
			"error: Bearer [redacted] and [redacted]",
		);
		chmodSync(s.file, 0o644);
		expect(s.get("a", "https://a.example/mcp")).toBeUndefined();
		expect(() => s.update("a", "https://a.example/mcp", (e) => e)).toThrow("is readable by group or others; run: chmod 600");
		writeFileSync(s.file, "{ not json", { mode: 0o600 });
		chmodSync(s.file, 0o600);
		expect(s.get("a", "https://a.example/mcp")).toBeUndefined();
		expect(() => s.update("a", "https://a.example/mcp", (e) => e)).toThrow("invalid JSON");
	});
});

describe("browser command", () => {
	it("uses $BROWSER (its words, then the URL), else xdg-open or open", () => {
		expect(browserCommand("https://x/a?b=c", { BROWSER: "firefox --new-window" }, "linux")).toEqual([
			"firefox",
			["--new-window", "https://x/a?b=c"],
		]);
		expect(browserCommand("https://x", {}, "linux")).toEqual(["xdg-open", ["https://x"]]);
		expect(browserCommand("https://x", {}, "darwin")).toEqual(["open", ["https://x"]]);
	});
});

describe("WWW-Authenticate challenge", () => {
	it("reads scope, resource metadata and error of a Bearer 401/403", () => {
		expect(readChallenge(403, 'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://s/.well-known/x"')).toEqual({
			status: 403,
			error: "insufficient_scope",
			scope: "a b",
			resourceMetadataUrl: "https://s/.well-known/x",
		});
		expect(readChallenge(401, null)).toEqual({ status: 401 });
		expect(readChallenge(200, "Bearer scope=x")).toBeUndefined();
		expect(readChallenge(403, null)).toBeUndefined();
	});
});
